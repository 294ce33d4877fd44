	pshufb	xmm0, xmm1
	palignr	xmm0, xmm1, 4
	pmaddubsw	xmm2, xmm3
