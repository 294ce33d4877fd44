# feature: avx-pclmul
# summary: PCLMULQDQ in its VEX.128 form (VPCLMULQDQ xmm; needs AVX as well as PCLMULQDQ)
# requires: avx pclmul
# cpuid: leaf=1 subleaf=0 reg=ecx bit=1
# xcr0: 0x6
# expect: c4 e3 71 44 c2 11
# expect: c4 e3 f1 44 c2 11
# since: binutils 2.19, llvm 2.8, nasm 2.03
# audit: VEX.128.66.0F3A.WIG 44 /r ib
	vpclmulqdq	$0x11,%xmm2,%xmm1,%xmm0
