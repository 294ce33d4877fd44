	vaddph	ymm0, ymm1, ymm2
	vfmadd132ph	ymm0, ymm1, ymm2
