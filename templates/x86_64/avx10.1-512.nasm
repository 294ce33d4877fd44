	vaddph	zmm0, zmm1, zmm2
	vfmadd132ph	zmm0, zmm1, zmm2
