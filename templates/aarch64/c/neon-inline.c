// feature: neon-inline
// summary: Advanced SIMD EXT through GNU inline asm, bare, under the build's flags alone (FFmpeg's neon_inline: check_insn's check_inline_asm of `ext v0.8b, v0.8b, v1.8b, #1`; no where CFLAGS leave SIMD out, e.g. -march=armv8-a+nosimd)
// insn: neon
// since: in every Armv8-A base; assembled here by clang-14, clang-19 and clang-22
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile("ext v0.8b, v0.8b, v1.8b, #1");
}
