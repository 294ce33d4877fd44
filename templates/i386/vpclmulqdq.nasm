	vpclmulqdq	ymm0, ymm1, ymm2, 0x11
