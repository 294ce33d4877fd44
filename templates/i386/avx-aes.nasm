	vaesenc	xmm0, xmm1, xmm2
	vaesdeclast	xmm2, xmm1, xmm3
