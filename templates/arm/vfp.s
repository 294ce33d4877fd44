# feature: vfp
# summary: VFP floating point (VFPv2 and later): CP10/CP11 data processing, register transfers, loads/stores; FFmpeg's vfp check in the pre-UAL spelling `fadds s0, s0, s0`
# enable: .fpu vfpv2
# hwcap: AT_HWCAP bit=6
# isa: arm
# expect: 00 0a 30 ee
# since: VFPv2 (Arm11); assembled here by GNU as 2.40, clang-14, clang-19, clang-22 (in the armhf base too)
# audit: 0f000e10 0e000a00 ; 0f000e10 0e000a10 ; 0e000e00 0c000a00
# audit-thumb: ff000e10 ee000a00 ; ff000e10 ee000a10 ; fe000e00 ec000a00
	.syntax unified
	.arm
	fadds	s0, s0, s0
