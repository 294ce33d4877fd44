// feature: arm-neon-inline
// summary: a NEON VADD through GNU inline asm, its FPU named in the asm (x264's HAVE_ARM_INLINE_ASM form, with NEON)
// insn: neon
// since: any compiler with GNU inline asm whose assembler knows NEON
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile(".fpu neon\n\tvadd.i32 q0, q1, q2" ::: "q0");
}
