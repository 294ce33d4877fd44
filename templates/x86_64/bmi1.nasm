	andn	rax, rbx, rdx
	blsr	rdx, rcx
