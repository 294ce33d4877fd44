# feature: avx512dq
# summary: AVX-512 doubleword/quadword operations (VPMULLQ, 8-bit masks, ...)
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ebx bit=17
# xcr0: 0xe6
# expect: 62 f2 f5 48 40 c2 c5 f9 90 d1
# since: binutils 2.25, llvm 3.7, nasm 2.11
# audit: EVEX.66.0F38.W1 40 /r ; EVEX.F3.0F.W1 e6 /r ; EVEX.66.0F.W1 7b /r ; EVEX.66.0F3A.W1 39 /r ib ; EVEX.66.0F3A.W1 38 /r ib ; VEX.66.0F.W0 90 /r ; VEX.66.0F.W0 92 /r ; VEX.66.0F.W0 93 /r
	vpmullq	%zmm2,%zmm1,%zmm0
	kmovb	%k1,%k2
