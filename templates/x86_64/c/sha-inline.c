// feature: sha-inline
// summary: SHA256RNDS2 through GNU inline asm (libgcrypt's SHA extensions check)
// insn: sha
// since: any compiler with GNU inline asm whose assembler knows sha (binutils 2.24, llvm 3.4)
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile("sha256rnds2 {%%xmm0, %%xmm2, %%xmm1|xmm1, xmm2, xmm0}" ::: "xmm0", "xmm1", "xmm2");
}
