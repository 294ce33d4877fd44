# feature: avx512vbmi2
# summary: AVX-512 VBMI2 concatenate-and-shift VPSHLD/VPSHRD(V) and byte/word VPCOMPRESS/VPEXPAND (Ice Lake)
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ecx bit=6
# xcr0: 0xe6
# expect: 62 f3 f5 48 71 c2 03 62 f2 7d 48 63 08
# since: Ice Lake CPUs; assembled here by GNU as 2.40, clang-13..22 and nasm 2.16.01
# audit: EVEX.66.0F38.W0 62 /r ; EVEX.66.0F38.W1 62 /r ; EVEX.66.0F38.W0 63 /r ; EVEX.66.0F38.W1 63 /r ; EVEX.66.0F3A.W1 70 /r ib ; EVEX.66.0F3A.W0 71 /r ib ; EVEX.66.0F3A.W1 71 /r ib ; EVEX.66.0F3A.W1 72 /r ib ; EVEX.66.0F3A.W0 73 /r ib ; EVEX.66.0F3A.W1 73 /r ib ; EVEX.66.0F38.W1 70 /r ; EVEX.66.0F38.W0 71 /r ; EVEX.66.0F38.W1 71 /r ; EVEX.66.0F38.W1 72 /r ; EVEX.66.0F38.W0 73 /r ; EVEX.66.0F38.W1 73 /r
	vpshldq	$3,%zmm2,%zmm1,%zmm0
	vpcompressb	%zmm1,(%eax)
