	vpopcntq	zmm0, zmm1
