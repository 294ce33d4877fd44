	pmulld	xmm0, xmm1
	pblendw	xmm0, xmm1, 0x0f
	ptest	xmm2, xmm3
