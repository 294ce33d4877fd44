# feature: zbc
# summary: Carry-less multiply CLMUL/CLMULH/CLMULR
# enable: .option arch, +zbc
# hwprobe: key=4 bit=7
# expect: 33 a5 c5 0a
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fe00707f 0a001033 ; fe00707f 0a002033 ; fe00707f 0a003033
	clmulr	a0, a1, a2
