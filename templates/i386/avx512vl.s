# feature: avx512vl
# summary: AVX-512 vector length extensions (EVEX.128/256)
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ebx bit=31
# xcr0: 0xe6
# expect: 62 f3 f5 28 25 c2 96 62 f1 f5 09 d4 c2
# since: binutils 2.25, llvm 3.7, nasm 2.11
# audit: EVEX.256.66.0F3A.W1 25 /r ib ; EVEX.128.66.0F3A.W1 25 /r ib ; EVEX.256.66.0F3A.W0 25 /r ib ; EVEX.128.66.0F3A.W0 25 /r ib ; EVEX.256.66.0F.W1 d4 /r ; EVEX.128.66.0F.W1 d4 /r ; EVEX.256.66.0F.W0 fe /r ; EVEX.128.66.0F.W0 fe /r ; EVEX.256.66.0F.W0 ef /r ; EVEX.128.66.0F.W0 ef /r ; EVEX.256.F3.0F.W0 6f /r ; EVEX.128.F3.0F.W0 6f /r ; EVEX.256.F3.0F.W1 6f /r ; EVEX.128.F3.0F.W1 6f /r
	vpternlogq	$0x96,%ymm2,%ymm1,%ymm0
	vpaddq	%xmm2,%xmm1,%xmm0{%k1}
