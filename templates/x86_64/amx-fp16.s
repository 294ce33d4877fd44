# feature: amx-fp16
# summary: AMX-FP16 tile dot product of FP16 pairs TDPFP16PS (Granite Rapids)
# requires: amx-tile
# cpuid: leaf=7 subleaf=1 reg=eax bit=21
# xcr0: 0x60000
# expect: c4 e2 6b 5c c1
# since: Granite Rapids CPUs; assembled here by GNU as 2.40, clang-16, clang-19, clang-22
# audit: VEX.128.F2.0F38.W0 5c /r
# nasm: none
	tdpfp16ps	%tmm2,%tmm1,%tmm0
