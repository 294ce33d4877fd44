// feature: ebx-operand-inline
// summary: an asm operand in ebx through the "b" constraint (FFmpeg's HAVE_EBX_AVAILABLE; i386 -fPIC is where a compiler that keeps ebx for the GOT refuses)
// holds: 83 c3 55
// since: any GNU inline asm compiler, unless it reserves ebx (gcc before 5 under i386 -fPIC)
unsigned asmcap_probe(unsigned x);
unsigned asmcap_probe(unsigned x)
{
	__asm__("{addl $0x55, %0|add %0, 0x55}" : "+b"(x));
	return x;
}
