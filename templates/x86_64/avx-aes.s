# feature: avx-aes
# summary: AES-NI in its VEX.128 form (VAESENC xmm; needs AVX as well as AES-NI)
# requires: avx aesni
# cpuid: leaf=1 subleaf=0 reg=ecx bit=25
# xcr0: 0x6
# expect: c4 e2 71 dc c2 c4 e2 71 df d3
# expect: c4 e2 f1 dc c2 c4 e2 f1 df d3
# since: binutils 2.19, llvm 2.8, nasm 2.03
# audit: VEX.128.66.0F38.WIG dc /r ; VEX.128.66.0F38.WIG dd /r ; VEX.128.66.0F38.WIG de /r ; VEX.128.66.0F38.WIG df /r ; VEX.128.66.0F38.WIG db /r ; VEX.128.66.0F3A.WIG df /r ib
	vaesenc	%xmm2,%xmm1,%xmm0
	vaesdeclast	%xmm3,%xmm1,%xmm2
