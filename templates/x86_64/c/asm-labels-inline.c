// feature: asm-labels-inline
// summary: a numeric local label in inline asm, the branch to it resolved inside the function, rel8 or rel32 (FFmpeg's HAVE_INLINE_ASM_LABELS)
// holds: ff c9 75 fc | ff c9 0f 85 f8 ff ff ff
// since: any GNU inline asm compiler
unsigned asmcap_probe(unsigned n);
unsigned asmcap_probe(unsigned n)
{
	__asm__("1:\n\t{decl %0|dec %0}\n\tjnz 1b" : "+c"(n) : : "cc");
	return n;
}
