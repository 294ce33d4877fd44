	vpternlogq	ymm0, ymm1, ymm2, 0x96
	vpaddq	xmm16, xmm17, xmm18
