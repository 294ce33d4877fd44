// feature: xform-inline
// summary: the "Z" constraint printed with %y as an indexed (X-form) operand (FFmpeg's HAVE_XFORM_ASM): lwzx r9, RA, RB
// holds: 2e 00/07 20/e0 7d
// since: any Power compiler with GNU inline asm
int asmcap_probe(const int *p);
int asmcap_probe(const int *p)
{
	/* RT pinned to r9, so that the bytes name lwzx whatever RA and RB are */
	register int v __asm__("r9");
	__asm__("lwzx %0, %y1" : "=r"(v) : "Z"(*p));
	return v;
}
