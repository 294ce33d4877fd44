# feature: avx512ifma
# summary: AVX-512 52-bit integer multiply-add (VPMADD52LUQ/HUQ, EVEX)
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ebx bit=21
# xcr0: 0xe6
# expect: 62 f2 f5 48 b4 c2 62 f2 f5 48 b5 da
# since: binutils 2.26, llvm 3.8, nasm 2.11.06
# audit: EVEX.66.0F38.W1 b4 /r ; EVEX.66.0F38.W1 b5 /r
	vpmadd52luq	%zmm2,%zmm1,%zmm0
	vpmadd52huq	%zmm2,%zmm1,%zmm3
