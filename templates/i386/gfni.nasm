	gf2p8mulb	xmm0, xmm1
	gf2p8affineqb	xmm0, xmm1, 0
