	vperm2f128	ymm0, ymm1, ymm2, 0x20
	vbroadcastss	ymm0, [edi]
