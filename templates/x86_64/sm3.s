# feature: sm3
# summary: SM3 hash message schedule and rounds (VEX.128 VSM3*)
# requires: avx
# cpuid: leaf=7 subleaf=1 reg=eax bit=1
# xcr0: 0x6
# expect: c4 e2 70 da c2 c4 e2 71 da c2 c4 e3 71 de c2 05
# since: binutils 2.42, llvm 18, nasm 2.16.02
# audit: VEX.128.NP.0F38.W0 da /r ; VEX.128.66.0F38.W0 da /r ; VEX.128.66.0F3A.W0 de /r ib
	vsm3msg1	%xmm2,%xmm1,%xmm0
	vsm3msg2	%xmm2,%xmm1,%xmm0
	vsm3rnds2	$5,%xmm2,%xmm1,%xmm0
