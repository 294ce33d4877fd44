	pclmulqdq	xmm0, xmm1, 0x11
