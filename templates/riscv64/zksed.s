# feature: zksed
# summary: ShangMi SM4 SM4ED/SM4KS
# enable: .option arch, +zksed
# hwprobe: key=4 bit=14
# expect: 33 85 c5 30
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: 3e00707f 30000033 ; 3e00707f 34000033
	sm4ed	a0, a1, a2, 0
