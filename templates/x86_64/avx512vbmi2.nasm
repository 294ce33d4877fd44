	vpshldq	zmm0, zmm1, zmm2, 3
	vpcompressb	[rax], zmm1
