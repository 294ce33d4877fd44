	vpternlogq	ymm0, ymm1, ymm2, 0x96
	vpaddq	xmm0{k1}, xmm1, xmm2
