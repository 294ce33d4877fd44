// feature: sme-i16i64-inline
// summary: SMSTART and a 64-bit-tile SMOPA through GNU inline asm, bare, under the build's flags alone (FFmpeg's sme_i16i64_inline: check_inline_asm of the two instructions, no directive; yes where CFLAGS enable SME I16I64, e.g. -march=armv9-a+sme-i16i64)
// insn: sme-i16i64
// since: the build's -march must name the extension: +sme-i16i64 on clang-19 and clang-22 here, +sme-i64 (the older name) on clang-14
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile("smstart\n\tsmopa za0.d, p0/m, p0/m, z0.h, z1.h");
}
