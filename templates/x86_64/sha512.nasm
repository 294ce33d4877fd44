	vsha512rnds2	ymm0, ymm1, xmm2
	vsha512msg1	ymm0, xmm1
	vsha512msg2	ymm0, ymm1
