	vfmaddps	ymm0, ymm1, ymm2, ymm3
