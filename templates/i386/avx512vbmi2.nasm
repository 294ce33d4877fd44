	vpshldq	zmm0, zmm1, zmm2, 3
	vpcompressb	[eax], zmm1
