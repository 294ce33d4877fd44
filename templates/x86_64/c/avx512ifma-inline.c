// feature: avx512ifma-inline
// summary: VPMADD52LUQ on zmm through GNU inline asm
// insn: avx512ifma
// since: any compiler with GNU inline asm whose assembler knows avx512ifma (binutils 2.26, llvm 3.9)
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile("vpmadd52luq {%%zmm2, %%zmm1, %%zmm0|zmm0, zmm1, zmm2}" ::: "xmm0", "xmm1", "xmm2");
}
