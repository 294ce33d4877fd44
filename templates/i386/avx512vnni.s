# feature: avx512vnni
# summary: AVX-512 VNNI dot products VPDPBUSD(S)/VPDPWSSD(S), EVEX; FFmpeg's avx512icl form (a mask, zeroing) on the zmm0-7 of 32-bit mode
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ecx bit=11
# xcr0: 0xe6
# expect: 62 f2 55 c9 53 fc
# since: Cascade Lake / Ice Lake CPUs; assembled here by GNU as 2.40, clang-13..22 and nasm 2.16.01
# audit: EVEX.66.0F38.W0 50 /r ; EVEX.66.0F38.W0 51 /r ; EVEX.66.0F38.W0 52 /r ; EVEX.66.0F38.W0 53 /r
	vpdpwssds	%zmm4,%zmm5,%zmm7{%k1}{z}
