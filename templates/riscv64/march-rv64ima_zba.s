# feature: march-rv64ima_zba
# summary: Assembler-flag question: does `-march=rv64ima_zba' reach the assembler and enable SH1ADD (Zba)? The Linux kernel's TOOLCHAIN_HAS_ZBA asks `$(cc-option,-mabi=lp64 -march=rv64ima_zba)' (a C compile). No hwcap or hwprobe bit: a flag, not an extension
# as-flag: -march=rv64ima_zba
# expect: 33 a5 c5 20
# since: GNU as 2.40, clang-14, clang-19, clang-22
	sh1add	a0, a1, a2
