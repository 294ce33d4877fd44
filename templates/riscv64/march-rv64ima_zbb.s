# feature: march-rv64ima_zbb
# summary: Assembler-flag question: does `-march=rv64ima_zbb' reach the assembler and enable ANDN (Zbb)? The Linux kernel's TOOLCHAIN_HAS_ZBB asks `$(cc-option,-mabi=lp64 -march=rv64ima_zbb)' (a C compile). No hwcap or hwprobe bit: a flag, not an extension
# as-flag: -march=rv64ima_zbb
# expect: 33 f5 c5 40
# since: GNU as 2.40, clang-14, clang-19, clang-22
	andn	a0, a1, a2
