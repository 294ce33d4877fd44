# feature: aesni
# summary: AES-NI round instructions (legacy SSE encoding)
# cpuid: leaf=1 subleaf=0 reg=ecx bit=25
# expect: 66 0f 38 dc c1 66 0f 38 df d3 66 0f 3a df c1 01
# since: binutils 2.19, llvm 2.7, nasm 2.03
# audit: 66 0f 38 dc /r ; 66 0f 38 dd /r ; 66 0f 38 de /r ; 66 0f 38 df /r ; 66 0f 38 db /r ; 66 0f 3a df /r ib ; VEX.128.66.0F38.WIG dc /r ; VEX.128.66.0F38.WIG dd /r ; VEX.128.66.0F38.WIG de /r ; VEX.128.66.0F38.WIG df /r ; VEX.128.66.0F38.WIG db /r ; VEX.128.66.0F3A.WIG df /r ib
	aesenc	%xmm1,%xmm0
	aesdeclast	%xmm3,%xmm2
	aeskeygenassist	$1,%xmm1,%xmm0
