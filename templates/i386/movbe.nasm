	movbe	eax, [edi]
	movbe	[esi], ecx
