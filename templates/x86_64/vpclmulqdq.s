# feature: vpclmulqdq
# summary: vector carry-less multiply on ymm (VEX.256 VPCLMULQDQ)
# requires: avx pclmul
# cpuid: leaf=7 subleaf=0 reg=ecx bit=10
# xcr0: 0x6
# expect: c4 e3 75 44 c2 11
# expect: c4 e3 f5 44 c2 11
# since: binutils 2.30, llvm 6, nasm 2.13.03
# audit: VEX.256.66.0F3A.WIG 44 /r ib ; EVEX.66.0F3A.WIG 44 /r ib
	vpclmulqdq	$0x11,%ymm2,%ymm1,%ymm0
