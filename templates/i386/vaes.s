# feature: vaes
# summary: vector AES on ymm (VEX.256 VAESENC etc.)
# requires: avx aesni
# cpuid: leaf=7 subleaf=0 reg=ecx bit=9
# xcr0: 0x6
# expect: c4 e2 75 dc c2 c4 e2 75 df d3
# expect: c4 e2 f5 dc c2 c4 e2 f5 df d3
# since: binutils 2.30, llvm 6, nasm 2.13.03
# audit: VEX.256.66.0F38.WIG dc /r ; VEX.256.66.0F38.WIG dd /r ; VEX.256.66.0F38.WIG de /r ; VEX.256.66.0F38.WIG df /r ; EVEX.66.0F38.WIG dc /r ; EVEX.66.0F38.WIG dd /r ; EVEX.66.0F38.WIG de /r ; EVEX.66.0F38.WIG df /r
	vaesenc	%ymm2,%ymm1,%ymm0
	vaesdeclast	%ymm3,%ymm1,%ymm2
