# feature: avx512vnni
# summary: AVX-512 VNNI dot products VPDPBUSD(S)/VPDPWSSD(S), EVEX; the form FFmpeg's avx512icl check assembles (zmm31, a mask, zeroing)
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ecx bit=11
# xcr0: 0xe6
# expect: 62 02 15 c1 53 fc
# since: Cascade Lake / Ice Lake CPUs; assembled here by GNU as 2.40, clang-13..22 and nasm 2.16.01
# audit: EVEX.66.0F38.W0 50 /r ; EVEX.66.0F38.W0 51 /r ; EVEX.66.0F38.W0 52 /r ; EVEX.66.0F38.W0 53 /r
	vpdpwssds	%zmm28,%zmm29,%zmm31{%k1}{z}
