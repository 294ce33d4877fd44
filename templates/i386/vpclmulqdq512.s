# feature: vpclmulqdq512
# summary: carry-less multiply on zmm (EVEX.512 VPCLMULQDQ)
# requires: avx512f vpclmulqdq
# cpuid: leaf=7 subleaf=0 reg=ecx bit=10
# xcr0: 0xe6
# expect: 62 f3 75 48 44 c2 11
# expect: 62 f3 f5 48 44 c2 11
# since: binutils 2.30, llvm 6, nasm 2.13.03
# audit: EVEX.512.66.0F3A.WIG 44 /r ib
	vpclmulqdq	$0x11,%zmm2,%zmm1,%zmm0
