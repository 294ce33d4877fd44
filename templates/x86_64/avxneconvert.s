# feature: avxneconvert
# summary: AVX-NE-CONVERT BF16/FP16 loads with conversion VBCSTNE*, VCVTNEE*/VCVTNEO* and VEX VCVTNEPS2BF16
# requires: avx2
# cpuid: leaf=7 subleaf=1 reg=edx bit=5
# xcr0: 0x6
# expect: c4 e2 7d b1 00
# since: Sierra Forest / Arrow Lake CPUs; assembled here by GNU as 2.40, clang-16, clang-19, clang-22 and nasm 2.16.01
# audit: VEX.66.0F38.W0 b1 /r ; VEX.F3.0F38.W0 b1 /r ; VEX.NP.0F38.W0 b0 /r ; VEX.66.0F38.W0 b0 /r ; VEX.F3.0F38.W0 b0 /r ; VEX.F2.0F38.W0 b0 /r ; VEX.F3.0F38.W0 72 /r
	vbcstnesh2ps	(%rax),%ymm0
