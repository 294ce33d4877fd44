	aesenc	xmm0, xmm1
	aesdeclast	xmm2, xmm3
	aeskeygenassist	xmm0, xmm1, 1
