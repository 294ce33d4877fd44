// feature: i386-asm-nonlocal-labels-inline
// summary: a named (non-local) label in inline asm, the branch to it resolved inside the function, rel8 or rel32 (FFmpeg's HAVE_INLINE_ASM_NONLOCAL_LABELS)
// holds: 49 75 fd | 49 0f 85 f9 ff ff ff
// since: any GNU inline asm compiler that emits the asm once (a cloned or inlined copy defines the label twice)
unsigned asmcap_probe(unsigned n);
unsigned asmcap_probe(unsigned n)
{
	__asm__("asmcap_nonlocal_label:\n\t{decl %0|dec %0}\n\tjnz asmcap_nonlocal_label" : "+c"(n) : : "cc");
	return n;
}
