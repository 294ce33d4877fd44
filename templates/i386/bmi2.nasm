	mulx	eax, ebx, ecx
	rorx	edi, esi, 7
