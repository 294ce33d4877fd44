	rdrand	rax
