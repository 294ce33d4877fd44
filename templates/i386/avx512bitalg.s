# feature: avx512bitalg
# summary: AVX-512 BITALG byte/word population count VPOPCNTB/W and VPSHUFBITQMB (Ice Lake)
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ecx bit=12
# xcr0: 0xe6
# expect: 62 f2 7d 48 54 c1 62 f2 75 48 8f ca
# since: Ice Lake CPUs; assembled here by GNU as 2.40, clang-13..22 and nasm 2.16.01
# audit: EVEX.66.0F38.W0 54 /r ; EVEX.66.0F38.W1 54 /r ; EVEX.66.0F38.W0 8f /r
	vpopcntb	%zmm1,%zmm0
	vpshufbitqmb	%zmm2,%zmm1,%k1
