# feature: pclmul
# summary: PCLMULQDQ carry-less multiply (legacy SSE encoding)
# cpuid: leaf=1 subleaf=0 reg=ecx bit=1
# expect: 66 0f 3a 44 c1 11
# since: binutils 2.19, llvm 2.7, nasm 2.03
# audit: 66 0f 3a 44 /r ib ; VEX.128.66.0F3A.WIG 44 /r ib
	pclmulqdq	$0x11,%xmm1,%xmm0
