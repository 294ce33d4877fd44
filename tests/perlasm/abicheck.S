# void abicheck_call(const void *fn, const uint64_t args[6], uint64_t regs[29],
#                    int win64);
# Calls fn(args[0..5]) with the SysV convention (win64 == 0) or the Win64
# one (shadow space, 5th/6th arguments on the stack), with rbx, rbp, r12-r15
# (and, for Win64, rdi and rsi) loaded from regs[1..8] in the order
# rbx rbp rdi rsi r12 r13 r14 r15 and xmm6-xmm15 from regs[9..28] (two
# each); afterwards regs[0] = rax and regs[1..28] hold what those registers
# contain, so C can check what was preserved.
#include "abicall.inc"

	.text
	.globl	abicheck_call
	.type	abicheck_call,@function
abicheck_call:
	.irp	r, %rbx, %rbp, %r12, %r13, %r14, %r15
	pushq	\r
	.endr
	subq	$72,%rsp		# 16-aligned: shadow 0-31, args 32/40, fn 48, regs 56
	movq	%rdi,48(%rsp)
	movq	%rdx,56(%rsp)
	movq	%rdx,%r10
	movq	%rsi,%r11
	slots_load movq, 8, %r10, 8, CALLEE_SAVED	# SysV: rdi, rsi replaced below
	slots_load movdqu, 16, %r10, 72, XMMS
	testl	%ecx,%ecx
	jz	1f
	win64_args %r11, 0
	jmp	2f
1:	slots_load movq, 8, %r11, 0, %rdi, %rsi, %rdx, %rcx, %r8, %r9
2:	call	*48(%rsp)
	movq	56(%rsp),%r10
	slots_store movq, 8, %r10, 0, %rax, CALLEE_SAVED
	slots_store movdqu, 16, %r10, 72, XMMS
	addq	$72,%rsp
	.irp	r, %r15, %r14, %r13, %r12, %rbp, %rbx
	popq	\r
	.endr
	ret
	.size	abicheck_call,.-abicheck_call
	.section	.note.GNU-stack,"",@progbits
