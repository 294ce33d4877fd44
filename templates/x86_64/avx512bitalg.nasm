	vpopcntb	zmm0, zmm1
	vpshufbitqmb	k1, zmm1, zmm2
