# feature: march-armv8.4-a
# summary: Assembler-flag question: does `-Wa,-march=armv8.4-a' reach the assembler and raise its level, so that CFINV (FEAT_FlagM, mandatory from Armv8.4-A) assembles? The Linux kernel's AS_HAS_ARMV8_4. No hwcap bit: a flag, not an extension
# as-flag: -Wa,-march=armv8.4-a
# expect: 1f 40 00 d5
# since: GNU as 2.40, clang-14, clang-19, clang-22
	cfinv
