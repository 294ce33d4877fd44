# feature: lvz
# summary: LVZ virtualization (HVCL, GCSRRD/GCSRWR/GCSRXCHG, GTLBFLUSH): the kernel's AS_HAS_LVZ_EXTENSION (KVM)
# hwcap: AT_HWCAP bit=9
# expect: 00 80 2b 00
# since: Loongson 3A5000 (LA464) and later; assembled here by clang-19 and clang-22 (LLVM's integrated assembler; Debian 12 has no GNU binutils for loongarch64)
# audit: ffff8000 002b8000 ; ff000000 05000000 ; ffffffff 06482401
	hvcl	0
