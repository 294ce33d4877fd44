// feature: arm-asm-mod-q-inline
// summary: the %Q and %R operand modifiers (low and high word of a 64-bit operand) in inline asm (FFmpeg's HAVE_ASM_MOD_Q); the pairs are pinned to r4:r5 and r6:r7 so the bytes show which half each modifier named
// holds: 06 40 94 e0 07 50 a5 e0 | a4 19 45 eb 07 05
// since: any GNU inline asm compiler for 32-bit ARM
unsigned long long asmcap_probe(unsigned long long x, unsigned long long y);
unsigned long long asmcap_probe(unsigned long long x, unsigned long long y)
{
	register unsigned long long a __asm__("r4") = x;
	register unsigned long long b __asm__("r6") = y;
	__asm__("adds %Q0, %Q0, %Q1\n\tadc %R0, %R0, %R1" : "+r"(a) : "r"(b) : "cc");
	return a;
}
