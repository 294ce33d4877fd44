# feature: lbt-x86
# summary: LBT's x86 part: EFLAGS-computing arithmetic (X86ADD.W ...), the x87 stack top (X86MTTOP), SETX86J/SETX86LOOPE
# hwcap: AT_HWCAP bit=10
# expect: 86 14 3f 00
# since: Loongson 3A5000 (LA464) and later; assembled here by clang-19 and clang-22 (LLVM's integrated assembler; Debian 12 has no GNU binutils for loongarch64)
# audit: ffffff1f 00007000 ; ffffffe0 00007400 ; fffff800 00007800 ; fffffc18 00008000 ; ffffffde 00008008 ; ffffc3e0 00368000 ; fffe8018 003e8000 ; ffff8000 003f0000 ; ffff8018 003f8008 ; ffff8018 003f8010 ; ffff801c 003f8018 ; ffffe013 00542000 ; ffffe01b 00542010 ; ffffe01f 00542018 ; ffffc013 00544001 ; ffffc01b 00544011
# audit: ffffc01f 00544019 ; ffff8013 00548002 ; ffff801b 00548012 ; ffff801f 0054801a ; ffff0013 00550003 ; ffff001b 00550013 ; ffff001f 0055001b ; fffc0000 00580000 ; fffc03c0 005c0000
	x86add.w	$a0, $a1
