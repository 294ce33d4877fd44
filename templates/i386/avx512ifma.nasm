	vpmadd52luq	zmm0, zmm1, zmm2
	vpmadd52huq	zmm3, zmm1, zmm2
