	vaesenc	ymm0, ymm1, ymm2
	vaesdeclast	ymm2, ymm1, ymm3
