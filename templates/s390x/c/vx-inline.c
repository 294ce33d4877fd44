// feature: vx-inline
// summary: libgcrypt's HAVE_GCC_INLINE_ASM_S390X_VX check: `.machine "z13+vx"' then VX and VERLLF through GNU inline asm. clang-19 and clang-22 do not know that machine name, reset the machine and refuse VX (no), even under -march=z13; the assembler-level answers are vx (through `.machine z13') and machine-z13-vx
// insn: vx
// since: GNU as 2.26 (the `+vx' suffix); no clang here takes the spelling
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile(".machine \"z13+vx\"\n\tvx %%v0,%%v1,%%v31\n\tverllf %%v11,%%v11,16(%%r0)" ::: "memory");
}
