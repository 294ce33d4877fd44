# feature: avxvnniint8
# summary: AVX-VNNI-INT8 signed/unsigned byte dot products VPDPB[SU,SS,UU]D(S), VEX ({vex}: AVX10.2 has EVEX forms)
# requires: avx2
# cpuid: leaf=7 subleaf=1 reg=edx bit=4
# xcr0: 0x6
# expect: c4 e2 77 50 c2
# since: Sierra Forest / Arrow Lake CPUs; assembled here by GNU as 2.40, clang-16, clang-19, clang-22 and nasm 2.16.01
# audit: VEX.F2.0F38.W0 50 /r ; VEX.F2.0F38.W0 51 /r ; VEX.F3.0F38.W0 50 /r ; VEX.F3.0F38.W0 51 /r ; VEX.NP.0F38.W0 50 /r ; VEX.NP.0F38.W0 51 /r
	{vex} vpdpbssd	%ymm2,%ymm1,%ymm0
