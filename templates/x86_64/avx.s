# feature: avx
# summary: AVX 256-bit floating point (VEX.256); audit also counts the VEX.128 AES/PCLMUL forms, which need AVX
# cpuid: leaf=1 subleaf=0 reg=ecx bit=28
# xcr0: 0x6
# expect: c4 e3 75 06 c2 20 c4 e2 7d 18 07
# since: binutils 2.19, llvm 2.8, nasm 2.03
# audit: VEX.256.NP.0F.WIG 58 /r ; VEX.256.66.0F.WIG 58 /r ; VEX.256.NP.0F.WIG 59 /r ; VEX.256.66.0F.WIG 59 /r ; VEX.256.NP.0F.WIG 57 /r ; VEX.256.NP.0F.WIG 10 /r ; VEX.256.NP.0F.WIG 11 /r ; VEX.256.NP.0F.WIG 28 /r ; VEX.256.NP.0F.WIG 29 /r ; VEX.256.66.0F3A.W0 06 /r ib ; VEX.256.66.0F3A.W0 18 /r ib ; VEX.256.66.0F38.W0 18 /r ; VEX.NP.0F.WIG 77 ; VEX.128.66.0F38.WIG dc /r ; VEX.128.66.0F38.WIG dd /r ; VEX.128.66.0F38.WIG de /r ; VEX.128.66.0F38.WIG df /r ; VEX.128.66.0F38.WIG db /r ; VEX.128.66.0F3A.WIG df /r ib ; VEX.128.66.0F3A.WIG 44 /r ib
	vperm2f128	$0x20,%ymm2,%ymm1,%ymm0
	vbroadcastss	(%rdi),%ymm0
