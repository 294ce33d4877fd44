# feature: march-armv8.5-a
# summary: Assembler-flag question: does `-Wa,-march=armv8.5-a' reach the assembler and raise its level, so that SB (FEAT_SB, mandatory from Armv8.5-A) assembles? The Linux kernel's AS_HAS_ARMV8_5. No hwcap bit: a flag, not an extension
# as-flag: -Wa,-march=armv8.5-a
# expect: ff 30 03 d5
# since: GNU as 2.40, clang-14, clang-19, clang-22
	sb
