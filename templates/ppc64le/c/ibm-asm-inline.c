// feature: ibm-asm-inline
// summary: registers as bare numbers in inline asm (FFmpeg's HAVE_IBM_ASM: `add 0, 0, 0')
// holds: 14 02 00 7c
// since: any Power compiler with GNU inline asm but old Darwin as
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile("add 0, 0, 0" ::: "r0");
}
