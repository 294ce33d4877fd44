# feature: avxvnni
# summary: AVX-VNNI dot products, VEX form ({vex}; without it assemblers emit AVX512-VNNI EVEX)
# requires: avx2
# cpuid: leaf=7 subleaf=1 reg=eax bit=4
# xcr0: 0x6
# expect: c4 e2 75 50 c2 c4 e2 75 52 c2
# since: binutils 2.36, llvm 12 (nasm 2.16 has no {vex} form of it)
# audit: VEX.66.0F38.W0 50 /r ; VEX.66.0F38.W0 51 /r ; VEX.66.0F38.W0 52 /r ; VEX.66.0F38.W0 53 /r
# nasm: none
	{vex} vpdpbusd	%ymm2,%ymm1,%ymm0
	{vex} vpdpwssd	%ymm2,%ymm1,%ymm0
