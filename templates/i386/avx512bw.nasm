	vpermw	zmm0, zmm1, zmm2
	kmovq	k2, k1
