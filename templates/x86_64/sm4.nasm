	vsm4key4	ymm0, ymm1, ymm2
	vsm4rnds4	ymm0, ymm1, ymm2
