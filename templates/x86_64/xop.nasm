	vprotd	xmm0, xmm1, 7
	vpcomd	xmm0, xmm1, xmm2, 2
	vphaddbw	xmm0, xmm1
