# feature: zknd
# summary: NIST AES decryption AES64DS/AES64DSM/AES64IM (and AES64KS1I/KS2, shared with Zkne)
# enable: .option arch, +zknd
# hwprobe: key=4 bit=11
# expect: 33 85 c5 3a
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fe00707f 3a000033 ; fe00707f 3e000033 ; fff0707f 30001013 ; ff00707f 31001013 ; fe00707f 7e000033
	aes64ds	a0, a1, a2
