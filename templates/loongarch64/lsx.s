# feature: lsx
# summary: LSX, the 128-bit SIMD extension ($vr0-$vr31): FFmpeg's HAVE_LSX check_insn, the kernel's AS_HAS_LSX_EXTENSION
# hwcap: AT_HWCAP bit=4
# expect: 20 08 0a 70
# since: Loongson 3A5000 (LA464) and later; assembled here by clang-19 and clang-22 (LLVM's integrated assembler; Debian 12 has no GNU binutils for loongarch64)
# audit: fc000000 70000000 ; ffc00000 2c000000 ; ffc00000 2c400000 ; fe000000 30000000 ; ffff8000 38400000 ; ffff8000 38440000 ; ff000000 09000000 ; fff00000 0c500000 ; fff00000 0c600000 ; fff00000 0d100000 ; fff00000 0d500000
	vadd.b	$vr0, $vr1, $vr2
