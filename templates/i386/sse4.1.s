# feature: sse4.1
# summary: SSE4.1 blends, pmulld, ptest, pmovzx/sx, round (legacy SSE encoding)
# cpuid: leaf=1 subleaf=0 reg=ecx bit=19
# expect: 66 0f 38 40 c1 66 0f 3a 0e c1 0f 66 0f 38 17 d3
# since: binutils 2.18, llvm 2.3, nasm 2.00
# audit: 66 0f 38 10 /r ; 66 0f 38 14 /r ; 66 0f 38 15 /r ; 66 0f 38 17 /r ; 66 0f 38 20 /r ; 66 0f 38 21 /r ; 66 0f 38 22 /r ; 66 0f 38 23 /r ; 66 0f 38 24 /r ; 66 0f 38 25 /r ; 66 0f 38 28 /r ; 66 0f 38 29 /r ; 66 0f 38 2a /r ; 66 0f 38 2b /r ; 66 0f 38 30 /r ; 66 0f 38 31 /r ; 66 0f 38 32 /r ; 66 0f 38 33 /r ; 66 0f 38 34 /r ; 66 0f 38 35 /r ; 66 0f 38 38 /r ; 66 0f 38 39 /r ; 66 0f 38 3a /r ; 66 0f 38 3b /r ; 66 0f 38 3c /r ; 66 0f 38 3d /r ; 66 0f 38 3e /r ; 66 0f 38 3f /r ; 66 0f 38 40 /r ; 66 0f 38 41 /r ; 66 0f 3a 08 /r ib ; 66 0f 3a 09 /r ib ; 66 0f 3a 0a /r ib ; 66 0f 3a 0b /r ib ; 66 0f 3a 0c /r ib ; 66 0f 3a 0d /r ib ; 66 0f 3a 0e /r ib ; 66 0f 3a 14 /r ib ; 66 0f 3a 15 /r ib ; 66 0f 3a 16 /r ib ; 66 0f 3a 17 /r ib ; 66 0f 3a 20 /r ib ; 66 0f 3a 21 /r ib ; 66 0f 3a 22 /r ib ; 66 0f 3a 40 /r ib ; 66 0f 3a 41 /r ib ; 66 0f 3a 42 /r ib
	pmulld	%xmm1,%xmm0
	pblendw	$0x0f,%xmm1,%xmm0
	ptest	%xmm3,%xmm2
