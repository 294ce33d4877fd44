# feature: scq
# summary: SC.Q, the 128-bit store-conditional of LoongArch v1.1: the kernel's AS_HAS_SCQ_EXTENSION (cmpxchg128); no hwcap bit in the kernel's uapi header
# expect: cc 35 57 38
# since: LoongArch v1.1 (LA664); assembled here by clang-19 and clang-22 (LLVM's integrated assembler; Debian 12 has no GNU binutils for loongarch64)
# audit: ffff8000 38570000
	sc.q	$t0, $t1, $t2
