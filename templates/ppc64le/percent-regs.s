# feature: percent-regs
# summary: Syntax question: are %-prefixed register names (`add %r3, %r4, %r5') taken, the form Linux's Power sources use beside bare numbers? No hwcap bit: a syntax, not an extension
# expect: 14 2a 64 7c
# since: GNU as, clang; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
	add	%r3, %r4, %r5
