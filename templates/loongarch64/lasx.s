# feature: lasx
# summary: LASX, the 256-bit SIMD extension ($xr0-$xr31): FFmpeg's HAVE_LASX check_insn, x264's LASX check, the kernel's AS_HAS_LASX_EXTENSION
# hwcap: AT_HWCAP bit=5
# expect: 20 08 0a 74
# since: Loongson 3A5000 (LA464) and later; assembled here by clang-19 and clang-22 (LLVM's integrated assembler; Debian 12 has no GNU binutils for loongarch64)
# audit: fc000000 74000000 ; ffc00000 2c800000 ; ffc00000 2cc00000 ; fe000000 32000000 ; ffff8000 38480000 ; ffff8000 384c0000 ; ff000000 0a000000 ; fff00000 0c900000 ; fff00000 0ca00000 ; fff00000 0d200000 ; fff00000 0d600000
	xvadd.b	$xr0, $xr1, $xr2
