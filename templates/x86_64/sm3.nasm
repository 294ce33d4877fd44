	vsm3msg1	xmm0, xmm1, xmm2
	vsm3msg2	xmm0, xmm1, xmm2
	vsm3rnds2	xmm0, xmm1, xmm2, 5
