# feature: avx512vbmi
# summary: AVX-512 vector byte manipulation (VPERMB, VPMULTISHIFTQB, ...)
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ecx bit=1
# xcr0: 0xe6
# expect: 62 f2 75 48 8d c2 62 f2 f5 48 83 c2
# since: binutils 2.26, llvm 3.8, nasm 2.11.06
# audit: EVEX.66.0F38.W0 8d /r ; EVEX.66.0F38.W1 83 /r ; EVEX.66.0F38.W0 75 /r ; EVEX.66.0F38.W0 7d /r
	vpermb	%zmm2,%zmm1,%zmm0
	vpmultishiftqb	%zmm2,%zmm1,%zmm0
