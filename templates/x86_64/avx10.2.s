# feature: avx10.2
# summary: AVX10.2 new instructions: VMINMAX*, saturating truncations VCVTT*S, BF16 arithmetic, FP8 conversions (512-bit forms)
# cpuid: leaf=7 subleaf=1 reg=edx bit=19
# cpuid: leaf=36 subleaf=0 reg=ebx bits=7:0 min=2
# xcr0: 0xe6
# expect: 62 f3 f5 48 52 c2 01 62 f5 7c 48 6d c1 62 f5 75 48 58 c2 62 f2 77 48 74 c2
# since: binutils 2.44, llvm 20; assembled here by clang-22 only (not GNU as 2.40, clang-19)
# audit: EVEX.66.0F3A.W1 52 /r ib ; EVEX.66.0F3A.W0 52 /r ib ; EVEX.F2.0F3A.W0 52 /r ib ; EVEX.66.0F3A.W1 53 /r ib ; EVEX.66.0F3A.W0 53 /r ib ; EVEX.NP.MAP5.WIG 6d /r ; EVEX.66.MAP5.WIG 6d /r ; EVEX.NP.MAP5.WIG 6c /r ; EVEX.66.MAP5.WIG 6c /r ; EVEX.66.MAP5.W0 58 /r ; EVEX.66.MAP5.W0 59 /r ; EVEX.66.MAP5.W0 5c /r ; EVEX.66.MAP5.W0 5e /r ; EVEX.F2.0F38.W0 74 /r ; EVEX.NP.0F38.W0 74 /r
# nasm: none
	vminmaxpd	$1,%zmm2,%zmm1,%zmm0
	vcvttps2dqs	%zmm1,%zmm0
	vaddbf16	%zmm2,%zmm1,%zmm0
	vcvt2ph2bf8	%zmm2,%zmm1,%zmm0
