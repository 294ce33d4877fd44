# feature: lbt-arm
# summary: LBT's ARM part: NZCV-computing arithmetic (ARMADD.W ...), ARMMOVE, ARMMFFLAG/ARMMTFLAG, SETARMJ
# hwcap: AT_HWCAP bit=11
# expect: 91 14 37 00
# since: Loongson 3A5000 (LA464) and later; assembled here by clang-19 and clang-22 (LLVM's integrated assembler; Debian 12 has no GNU binutils for loongarch64)
# audit: ffffc000 00364000 ; ffffc3e0 0036c000 ; ffff0010 00370010 ; fffc0010 00380010 ; fffe0010 003c0010 ; ffff8010 003e0010 ; ffffc01c 003fc01c ; fffc03c0 005c0040
	armadd.w	$a0, $a1, 1
