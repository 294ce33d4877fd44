# feature: march-armv8.3-a
# summary: Assembler-flag question: does `-Wa,-march=armv8.3-a' reach the assembler and raise its level, so that LDAPR (FEAT_LRCPC, mandatory from Armv8.3-A) assembles? The Linux kernel's AS_HAS_ARMV8_3. No hwcap bit: a flag, not an extension
# as-flag: -Wa,-march=armv8.3-a
# expect: 20 c0 bf f8
# since: GNU as 2.40, clang-14, clang-19, clang-22
	ldapr	x0, [x1]
