# feature: crc32
# summary: CRC.W.{B,H,W,D}.W and CRCC (CRC-32 and CRC-32C) checksum instructions
# hwcap: AT_HWCAP bit=6
# expect: a4 18 24 00
# since: LoongArch64 (CPUCFG.1 CRC); assembled here by clang-19 and clang-22 (LLVM's integrated assembler; Debian 12 has no GNU binutils for loongarch64)
# audit: fffc0000 00240000
	crc.w.b.w	$a0, $a1, $a2
