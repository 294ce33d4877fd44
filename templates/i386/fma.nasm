	vfmadd231pd	ymm0, ymm1, ymm2
	vfmadd213ps	xmm0, xmm1, xmm2
