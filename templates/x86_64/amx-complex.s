# feature: amx-complex
# summary: AMX-COMPLEX complex FP16 tile products TCMMIMFP16PS/TCMMRLFP16PS (Granite Rapids-D)
# requires: amx-tile
# cpuid: leaf=7 subleaf=1 reg=edx bit=8
# xcr0: 0x60000
# expect: c4 e2 69 6c c1 c4 e2 68 6c c1
# since: Granite Rapids-D CPUs; assembled here by clang-19, clang-22 (not GNU as 2.40)
# audit: VEX.128.66.0F38.W0 6c /r ; VEX.128.NP.0F38.W0 6c /r
# nasm: none
	tcmmimfp16ps	%tmm2,%tmm1,%tmm0
	tcmmrlfp16ps	%tmm2,%tmm1,%tmm0
