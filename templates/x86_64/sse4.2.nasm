	crc32	eax, ecx
	pcmpgtq	xmm0, xmm1
