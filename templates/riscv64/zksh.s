# feature: zksh
# summary: ShangMi SM3 SM3P0/SM3P1
# enable: .option arch, +zksh
# hwprobe: key=4 bit=15
# expect: 13 95 85 10
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: ffe0707f 10801013
	sm3p0	a0, a1
