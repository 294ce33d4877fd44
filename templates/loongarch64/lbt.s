# feature: lbt
# summary: LBT binary translation, its common part (scratch registers $scr0-$scr3, JISCR0/1, ADC/SBC/RCR, ROTR/ROTRI.B/H): the kernel's AS_HAS_LBT_EXTENSION (CPU_HAS_LBT); no one hwcap bit: the kernel sets LBT_X86, LBT_ARM or LBT_MIPS
# expect: 04 0c 00 00
# since: Loongson 3A5000 (LA464) and later; assembled here by clang-19 and clang-22 (LLVM's integrated assembler; Debian 12 has no GNU binutils for loongarch64)
# audit: fffffc1c 00000800 ; ffffff80 00000c00 ; ffff0000 001a0000 ; fffc0000 00300000 ; fffe0000 00340000 ; ffffe000 004c2000 ; ffffc000 004c4000 ; fc0002e0 48000200
	movscr2gr	$a0, $scr0
