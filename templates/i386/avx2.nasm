	vpermq	ymm0, ymm1, 0x1b
	vpsllvq	ymm0, ymm1, ymm2
