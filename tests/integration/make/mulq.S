	.text
	.globl	sample_mulq
sample_mulq:
	mulq	%rbx
	ret
