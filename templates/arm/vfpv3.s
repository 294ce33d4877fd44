# feature: vfpv3
# summary: VFPv3 additions: VMOV immediate and fixed-point VCVT (FFmpeg's vfpv3 check `vmov.f32 s0, #1.0`)
# requires: vfp
# enable: .fpu vfpv3
# hwcap: AT_HWCAP bit=13
# isa: arm
# expect: 00 0a b7 ee
# since: Armv7-A VFPv3; assembled here by GNU as 2.40, clang-14, clang-19, clang-22 (in the armhf base too)
# audit: 0fb00ef0 0eb00a00 ; 0fba0e50 0eba0a40
# audit-thumb: ffb00ef0 eeb00a00 ; ffba0e50 eeba0a40
	.syntax unified
	.arm
	vmov.f32	s0, #1.0
