# feature: avx2
# summary: AVX2 256-bit integer (VEX.256)
# requires: avx
# cpuid: leaf=7 subleaf=0 reg=ebx bit=5
# xcr0: 0x6
# expect: c4 e3 fd 00 c1 1b c4 e2 f5 47 c2
# since: binutils 2.21, llvm 3.2, nasm 2.10
# audit: VEX.256.66.0F.WIG d4 /r ; VEX.256.66.0F.WIG fe /r ; VEX.256.66.0F.WIG ef /r ; VEX.256.66.0F.WIG f4 /r ; VEX.256.66.0F3A.W1 00 /r ib ; VEX.256.66.0F3A.W1 01 /r ib ; VEX.256.66.0F38.W0 36 /r ; VEX.256.66.0F38.W1 47 /r ; VEX.256.66.0F38.W1 45 /r ; VEX.256.66.0F38.W0 58 /r ; VEX.256.66.0F38.W0 59 /r ; VEX.256.66.0F3A.W0 38 /r ib ; VEX.256.66.0F3A.W0 46 /r ib
	vpermq	$0x1b,%ymm1,%ymm0
	vpsllvq	%ymm2,%ymm1,%ymm0
