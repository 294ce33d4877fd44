# feature: march-z13
# summary: Assembler-flag question: does `-march=z13' reach the assembler and enable the vector facility (VX)? The flag that gives clang the vector instructions its `.machine "z13+vx"' does not. No hwcap bit: a flag, not an extension
# as-flag: -march=z13
# expect: e7 01 f0 00 02 6d e7 bb 00 10 20 33
# since: GNU as 2.40, clang-19, clang-22
	vx	%v0,%v1,%v31
	verllf	%v11,%v11,16(%r0)
