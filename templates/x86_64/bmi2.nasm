	mulx	rax, rbx, rcx
	rorx	rdi, rsi, 7
