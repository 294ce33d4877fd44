# feature: avxifma
# summary: AVX-IFMA 52-bit multiply-add, VEX form ({vex}; without it assemblers emit AVX512-IFMA EVEX)
# requires: avx2
# cpuid: leaf=7 subleaf=1 reg=eax bit=23
# xcr0: 0x6
# expect: c4 e2 f5 b4 c2 c4 e2 f5 b5 c2
# since: binutils 2.40, llvm 16, nasm 2.16
# audit: VEX.66.0F38.W1 b4 /r ; VEX.66.0F38.W1 b5 /r
	{vex} vpmadd52luq	%ymm2,%ymm1,%ymm0
	{vex} vpmadd52huq	%ymm2,%ymm1,%ymm0
