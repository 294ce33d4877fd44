# feature: vaes512
# summary: vector AES on zmm (EVEX.512 VAESENC etc.)
# requires: avx512f vaes
# cpuid: leaf=7 subleaf=0 reg=ecx bit=9
# xcr0: 0xe6
# expect: 62 f2 75 48 dc c2 62 f2 75 48 df d3
# expect: 62 f2 f5 48 dc c2 62 f2 f5 48 df d3
# since: binutils 2.30, llvm 6, nasm 2.13.03
# audit: EVEX.512.66.0F38.WIG dc /r ; EVEX.512.66.0F38.WIG dd /r ; EVEX.512.66.0F38.WIG de /r ; EVEX.512.66.0F38.WIG df /r
	vaesenc	%zmm2,%zmm1,%zmm0
	vaesdeclast	%zmm3,%zmm1,%zmm2
