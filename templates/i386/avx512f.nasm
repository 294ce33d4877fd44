	vpaddq	zmm0, zmm1, zmm2
	vpternlogq	zmm0, zmm1, zmm2, 0x96
