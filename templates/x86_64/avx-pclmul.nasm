	vpclmulqdq	xmm0, xmm1, xmm2, 0x11
