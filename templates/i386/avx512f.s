# feature: avx512f
# summary: AVX-512 Foundation (EVEX.512, zmm and mask registers)
# requires: avx2
# cpuid: leaf=7 subleaf=0 reg=ebx bit=16
# xcr0: 0xe6
# expect: 62 f1 f5 48 d4 c2 62 f3 f5 48 25 c2 96
# since: binutils 2.25, llvm 3.6, nasm 2.11
# audit: EVEX.512.66.0F.W1 d4 /r ; EVEX.512.66.0F.W0 fe /r ; EVEX.512.66.0F.W1 f4 /r ; EVEX.512.66.0F.W0 ef /r ; EVEX.512.66.0F.W1 ef /r ; EVEX.512.66.0F3A.W0 25 /r ib ; EVEX.512.66.0F3A.W1 25 /r ib ; EVEX.512.NP.0F.W0 58 /r ; EVEX.512.66.0F.W1 58 /r ; EVEX.512.F3.0F.W0 6f /r ; EVEX.512.F3.0F.W1 6f /r ; EVEX.512.NP.0F.W0 10 /r ; EVEX.512.NP.0F.W0 11 /r
	vpaddq	%zmm2,%zmm1,%zmm0
	vpternlogq	$0x96,%zmm2,%zmm1,%zmm0
