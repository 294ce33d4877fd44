# feature: zbkx
# summary: Crossbar permutations XPERM4/XPERM8
# enable: .option arch, +zbkx
# hwprobe: key=4 bit=10
# expect: 33 c5 c5 28
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fe00707f 28004033 ; fe00707f 28002033
	xperm8	a0, a1, a2
