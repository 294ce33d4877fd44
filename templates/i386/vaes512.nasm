	vaesenc	zmm0, zmm1, zmm2
	vaesdeclast	zmm2, zmm1, zmm3
