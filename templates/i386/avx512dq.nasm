	vpmullq	zmm0, zmm1, zmm2
	kmovb	k2, k1
