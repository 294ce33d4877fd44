# feature: avxvnniint16
# summary: AVX-VNNI-INT16 word dot products VPDPW[SU,US,UU]D(S), VEX ({vex}: AVX10.2 has EVEX forms)
# requires: avx2
# cpuid: leaf=7 subleaf=1 reg=edx bit=10
# xcr0: 0x6
# expect: c4 e2 76 d2 c2
# since: Lunar Lake / Arrow Lake CPUs; assembled here by clang-19, clang-22 (not GNU as 2.40)
# audit: VEX.F3.0F38.W0 d2 /r ; VEX.F3.0F38.W0 d3 /r ; VEX.66.0F38.W0 d2 /r ; VEX.66.0F38.W0 d3 /r ; VEX.NP.0F38.W0 d2 /r ; VEX.NP.0F38.W0 d3 /r
# nasm: none
	{vex} vpdpwsud	%ymm2,%ymm1,%ymm0
