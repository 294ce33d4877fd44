	sha1rnds4	xmm2, xmm1, 3
	sha256rnds2	xmm2, xmm1, xmm0
	sha256msg1	xmm3, xmm1
