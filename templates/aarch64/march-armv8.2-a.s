# feature: march-armv8.2-a
# summary: Assembler-flag question: does `-Wa,-march=armv8.2-a' reach the assembler and raise its level, so that DC CVAP (FEAT_DPB, mandatory from Armv8.2-A) assembles? The Linux kernel's AS_HAS_ARMV8_2. No hwcap bit: a flag, not an extension
# as-flag: -Wa,-march=armv8.2-a
# expect: 20 7c 0b d5
# since: GNU as 2.40, clang-14, clang-19, clang-22
	dc	cvap, x0
