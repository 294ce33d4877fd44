# feature: gfni
# summary: Galois field GF(2^8) instructions (legacy SSE encoding)
# cpuid: leaf=7 subleaf=0 reg=ecx bit=8
# expect: 66 0f 38 cf c1 66 0f 3a ce c1 00
# since: binutils 2.30, llvm 6, nasm 2.14
# audit: 66 0f 38 cf /r ; 66 0f 3a ce /r ib ; 66 0f 3a cf /r ib ; VEX.66.0F38.W0 cf /r ; VEX.66.0F3A.W1 ce /r ib ; VEX.66.0F3A.W1 cf /r ib ; EVEX.66.0F38.W0 cf /r ; EVEX.66.0F3A.W1 ce /r ib ; EVEX.66.0F3A.W1 cf /r ib
	gf2p8mulb	%xmm1,%xmm0
	gf2p8affineqb	$0,%xmm1,%xmm0
