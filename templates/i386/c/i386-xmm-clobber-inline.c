// feature: i386-xmm-clobber-inline
// summary: xmm0 in an asm's clobber list (FFmpeg's HAVE_XMM_CLOBBERS); xmm0 is caller-saved, so the object shows the asm, not the clobber
// holds: 66 0f ef c0
// since: any GNU inline asm compiler with SSE registers enabled
void asmcap_probe(void);
void asmcap_probe(void)
{
	__asm__ volatile("{pxor %%xmm0, %%xmm0|pxor xmm0, xmm0}" ::: "xmm0");
}
