	movbe	rax, [rdi]
	movbe	[rsi], rcx
