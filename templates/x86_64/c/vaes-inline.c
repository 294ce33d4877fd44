// feature: vaes-inline
// summary: VAESENC on ymm through GNU inline asm (libgcrypt's VAES check)
// insn: vaes
// since: any compiler with GNU inline asm whose assembler knows vaes (binutils 2.30, llvm 6)
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile("vaesenc {%%ymm2, %%ymm1, %%ymm0|ymm0, ymm1, ymm2}" ::: "xmm0", "xmm1", "xmm2");
}
