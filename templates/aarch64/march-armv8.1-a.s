# feature: march-armv8.1-a
# summary: Assembler-flag question: does `-Wa,-march=armv8.1-a' reach the assembler and raise its level, so that LDADD (FEAT_LSE, mandatory from Armv8.1-A) assembles? The kernel's AS_HAS_ARMV8_2..5 start one level above it. No hwcap bit: a flag, not an extension
# as-flag: -Wa,-march=armv8.1-a
# expect: 41 00 20 f8
# since: GNU as 2.40, clang-14, clang-19, clang-22
	ldadd	x0, x1, [x2]
