	vpclmulqdq	zmm0, zmm1, zmm2, 0x11
