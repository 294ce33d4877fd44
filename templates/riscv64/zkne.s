# feature: zkne
# summary: NIST AES encryption AES64ES/AES64ESM (and AES64KS1I/KS2, shared with Zknd)
# enable: .option arch, +zkne
# hwprobe: key=4 bit=12
# expect: 33 85 c5 32
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fe00707f 32000033 ; fe00707f 36000033 ; ff00707f 31001013 ; fe00707f 7e000033
	aes64es	a0, a1, a2
