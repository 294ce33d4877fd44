	wrussq	[rbx], rax
