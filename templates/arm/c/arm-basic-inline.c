// feature: arm-basic-inline
// summary: a plain ARM instruction through inline asm (x264's HAVE_ARM_INLINE_ASM), in the function's instruction set (A32, or Thumb-2's add.w)
// holds: 02 00 81 e0 | 01 eb 02 00
// since: any GNU inline asm compiler for 32-bit ARM
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile("add r0, r1, r2" ::: "r0");
}
