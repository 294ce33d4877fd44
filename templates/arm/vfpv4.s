# feature: vfpv4
# summary: VFPv4 fused multiply-add VFMA/VFMS/VFNMA/VFNMS, scalar and vector
# requires: vfp
# enable: .fpu vfpv4
# hwcap: AT_HWCAP bit=16
# isa: arm
# expect: 02 0b a1 ee
# since: Armv7-A with VFPv4 (Cortex-A7/A15 and later); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 0fb00e10 0ea00a00 ; 0fb00e10 0e900a00 ; ff800f10 f2000c10
# audit-thumb: ffb00e10 eea00a00 ; ffb00e10 ee900a00 ; ff800f10 ef000c10
	.syntax unified
	.arm
	vfma.f64	d0, d1, d2
