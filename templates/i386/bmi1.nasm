	andn	eax, ebx, edx
	blsr	edx, ecx
