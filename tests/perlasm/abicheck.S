# void abicheck_call(const void *fn, const uint64_t args[6], uint64_t regs[9],
#                    int win64);
# Calls fn(args[0..5]) with the SysV convention (win64 == 0) or the Win64
# one (shadow space, 5th/6th arguments on the stack), with rbx, rbp, r12-r15
# (and, for Win64, rdi and rsi) loaded from regs[1..8] in the order
# rbx rbp rdi rsi r12 r13 r14 r15; afterwards regs[0] = rax and regs[1..8]
# hold what those registers contain, so C can check what was preserved.
	.text
	.globl	abicheck_call
	.type	abicheck_call,@function
abicheck_call:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$72,%rsp		# 16-aligned: shadow 0-31, args 32/40, fn 48, regs 56
	movq	%rdi,48(%rsp)
	movq	%rdx,56(%rsp)
	movq	%rdx,%r10
	movq	%rsi,%r11
	movq	32(%r11),%rax
	movq	%rax,32(%rsp)
	movq	40(%r11),%rax
	movq	%rax,40(%rsp)
	movq	8(%r10),%rbx
	movq	16(%r10),%rbp
	movq	40(%r10),%r12
	movq	48(%r10),%r13
	movq	56(%r10),%r14
	movq	64(%r10),%r15
	testl	%ecx,%ecx
	jz	1f
	movq	24(%r10),%rdi
	movq	32(%r10),%rsi
	movq	(%r11),%rcx
	movq	8(%r11),%rdx
	movq	16(%r11),%r8
	movq	24(%r11),%r9
	jmp	2f
1:	movq	(%r11),%rdi
	movq	8(%r11),%rsi
	movq	16(%r11),%rdx
	movq	24(%r11),%rcx
	movq	32(%r11),%r8
	movq	40(%r11),%r9
2:	call	*48(%rsp)
	movq	56(%rsp),%r10
	movq	%rax,(%r10)
	movq	%rbx,8(%r10)
	movq	%rbp,16(%r10)
	movq	%rdi,24(%r10)
	movq	%rsi,32(%r10)
	movq	%r12,40(%r10)
	movq	%r13,48(%r10)
	movq	%r14,56(%r10)
	movq	%r15,64(%r10)
	addq	$72,%rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size	abicheck_call,.-abicheck_call
	.section	.note.GNU-stack,"",@progbits
