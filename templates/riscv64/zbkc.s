# feature: zbkc
# summary: Carry-less multiply for cryptography CLMUL/CLMULH (also in Zbc)
# enable: .option arch, +zbkc
# hwprobe: key=4 bit=9
# expect: 33 95 c5 0a
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fe00707f 0a001033 ; fe00707f 0a003033
	clmul	a0, a1, a2
