# feature: sm4
# summary: SM4 block cipher key expansion and rounds (VEX VSM4*)
# requires: avx
# cpuid: leaf=7 subleaf=1 reg=eax bit=2
# xcr0: 0x6
# expect: c4 e2 76 da c2 c4 e2 77 da c2
# since: binutils 2.42, llvm 18, nasm 2.16.02
# audit: VEX.F3.0F38.W0 da /r ; VEX.F2.0F38.W0 da /r
	vsm4key4	%ymm2,%ymm1,%ymm0
	vsm4rnds4	%ymm2,%ymm1,%ymm0
