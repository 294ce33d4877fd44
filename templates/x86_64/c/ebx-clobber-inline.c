// feature: ebx-clobber-inline
// summary: ebx in an asm's clobber list, honoured: ebx is callee-saved in every x86 ABI, so the function saves it (FFmpeg's HAVE_EBX_AVAILABLE, its clobber form)
// holds: bb 55 00 00 00
// holds: 53
// since: any GNU inline asm compiler, unless it reserves ebx (gcc before 5 under i386 -fPIC); a compiler that saves ebx by a store instead of a push answers broken
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile("{movl $0x55, %%ebx|mov ebx, 0x55}" ::: "ebx");
}
