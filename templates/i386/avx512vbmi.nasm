	vpermb	zmm0, zmm1, zmm2
	vpmultishiftqb	zmm0, zmm1, zmm2
