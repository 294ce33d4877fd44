# feature: march-armv8.6-a
# summary: Assembler-flag question: does `-Wa,-march=armv8.6-a' reach the assembler and raise its level, so that SMMLA (FEAT_I8MM, mandatory with Advanced SIMD from Armv8.6-A) assembles? The kernel asks no AS_HAS_ARMV8_6 (its AS_HAS_ARMV8_2..5 stop at 8.5). No hwcap bit: a flag, not an extension
# as-flag: -Wa,-march=armv8.6-a
# expect: 20 a4 82 4e
# since: GNU as 2.40, clang-14, clang-19, clang-22
	smmla	v0.4s, v1.16b, v2.16b
