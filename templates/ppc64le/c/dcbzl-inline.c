// feature: dcbzl-inline
// summary: dcbzl through GNU inline asm, RA 0 (FFmpeg's HAVE_DCBZL check)
// insn: dcbzl
// since: any Power compiler with GNU inline asm whose assembler knows POWER4's dcbzl
void asmcap_probe(char *p);
void asmcap_probe(char *p)
{
	__asm__ volatile("dcbzl 0, %0" :: "r"(p) : "memory");
}
