# feature: armv6t2
# summary: Armv6T2 additions MOVW/MOVT (A32 audit: conditions 0000-1110 spelt out, 1111 is NEON), BFC/BFI, SBFX/UBFX, RBIT, MLS (FFmpeg's armv6t2 check `movt r0, #0`). No hwcap bit: HWCAP_THUMB does not tell Armv6T2
# enable: .arch armv6t2
# isa: arm
# expect: 00 00 40 e3
# since: Armv6T2, every Armv7-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 8ff00000 03400000 ; cff00000 83400000 ; eff00000 c3400000 ; fff00000 e3400000 ; 8ff00000 03000000 ; cff00000 83000000 ; eff00000 c3000000 ; fff00000 e3000000 ; 0fe00070 07c00010 ; 0fe00070 07e00050 ; 0fe00070 07a00050 ; 0fff0ff0 06ff0f30 ; 0ff000f0 00600090
# audit-thumb: fbf08000 f2c00000 ; fbf08000 f2400000 ; fff08020 f3600000 ; fff08020 f3c00000 ; fff08020 f3400000 ; fff0f0f0 fa90f0a0 ; fff000f0 fb000010
	.syntax unified
	.arm
	movt	r0, #0
