# feature: sha512
# summary: SHA-512 rounds and message schedule (VEX.256 VSHA512*)
# requires: avx
# cpuid: leaf=7 subleaf=1 reg=eax bit=0
# xcr0: 0x6
# expect: c4 e2 77 cb c2 c4 e2 7f cc c1 c4 e2 7f cd c1
# since: binutils 2.42, llvm 18, nasm 2.16.02
# audit: VEX.256.F2.0F38.W0 cb /r ; VEX.256.F2.0F38.W0 cc /r ; VEX.256.F2.0F38.W0 cd /r
	vsha512rnds2	%xmm2,%ymm1,%ymm0
	vsha512msg1	%xmm1,%ymm0
	vsha512msg2	%ymm1,%ymm0
