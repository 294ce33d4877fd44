# Sample of the perlasm dialect (see perlasm/Xlate.pm), used by the tests:
# every function is called from C through each calling convention.
	.text

# uint64_t xs_sum6(a, b, c, d, e, f): a + 2b + 3c + 4d + 5e + 6f, so a
# misplaced argument shows.
	.globl	xs_sum6
	.hidden	xs_sum6
	.type	xs_sum6,@function,6
	.align	16
xs_sum6:
	leaq	(%rdi,%rsi,2),%rax
	leaq	(%rdx,%rdx,2),%r10
	addq	%r10,%rax
	leaq	(%rax,%rcx,4),%rax
	leaq	(%r8,%r8,4),%r10
	addq	%r10,%rax
	imulq	$6,%r9,%r10
	addq	%r10,%rax
	testq	%rax,%rax		# a jump to a label right before ret
	jz	.Lsum_done
	orq	$0,%rax
.Lsum_done:
	ret
	.size	xs_sum6,.-xs_sum6

# uint64_t xs_mul_1(uint64_t *r, const uint64_t *a, size_t n, uint64_t b):
# r = a * b (n limbs), returns the carry limb. Clobbers every register the
# ABIs let it use after saving the callee-saved ones, with a stack frame.
	.globl	xs_mul_1
	.type	xs_mul_1,@function,4
	.align	16
xs_mul_1:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$24,%rsp
	movq	%rdx,%r12		# n
	movq	%rcx,%rbp		# b
	movq	%rdi,8(%rsp)
	xorl	%r13d,%r13d		# carry
	xorl	%ebx,%ebx		# i
	movq	$-1,%r14
	movq	$0x5a5a5a5a,%r15
.Lmul_loop:
	movq	(%rsi,%rbx,8),%rax
	mulq	%rbp
	addq	%r13,%rax
	adcq	$0,%rdx
	movq	8(%rsp),%rdi
	movq	%rax,(%rdi,%rbx,8)
	movq	%rdx,%r13
	leaq	1(%rbx),%rbx
	cmpq	%r12,%rbx
	jb	.Lmul_loop
	movq	%r13,%rax
	xorl	%esi,%esi
	xorl	%edi,%edi
	xorl	%r8d,%r8d
	xorl	%r9d,%r9d
	xorl	%r10d,%r10d
	xorl	%r11d,%r11d
	addq	$24,%rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size	xs_mul_1,.-xs_mul_1

# uint64_t xs_forms(uint64_t *r, const uint64_t *a, size_t n): the
# instruction forms the kernels use (assembled and compared, never run:
# it needs BMI2 and ADX). Frame larger than 128 bytes: UWOP_ALLOC_LARGE.
	.globl	xs_forms
	.type	xs_forms,@function,3
	.p2align	5
xs_forms:
	pushq	%rbx
	pushq	%r12
	subq	$264,%rsp
	movq	(%rsi),%rdx
	mulxq	8(%rsi),%rax,%rbx
	mulx	%rax,%r8,%r9
	adcxq	%rax,%r8
	adoxq	16(%rsi),%r9
	adcx	%rbx,%r12
	adox	%rbx,%r12
	mulq	24(%rsi)
	adcq	32(%rsi,%rdx,8),%rax
	sbbq	%rcx,%rcx
	sbbq	$0,%rax
	cmovcq	%rbx,%rax
	cmovncq	(%rsi),%rbx
	movq	%rax,-8+16(%rsp)
	movq	$0,256(%rsp)
	andq	$-2,%rax
	notq	%rax
	negq	%rcx
	shrq	$63,%rax
	shlq	%cl,%rbx
	shldq	$3,%rbx,%rax
	setc	%cl
	movzbl	%cl,%ecx
	incq	%rdx
	decq	%rdx
	testq	%rdx,%rdx
	leaq	.Lforms_done(%rip),%r8
	movq	.Lforms_done+8(%rip),%r9
	lea	-3(%rdx),%rdx
	jnz	.Lforms_done
	jmp	.Lforms_done
.Lforms_done:
	addq	$264,%rsp
	popq	%r12
	popq	%rbx
	ret
	.size	xs_forms,.-xs_forms

# void xs_xmm(uint64_t p[4]): p[2..3] = p[0..1] through xmm6-xmm15, which
# Win64 callers expect back: the Win64 flavours save and restore them (their
# low 128 bits) around the body, with unwind codes.
	.globl	xs_xmm
	.type	xs_xmm,@function,1
	.p2align	4
xs_xmm:
	subq	$8,%rsp
	movups	(%rdi),%xmm6
	movups	%xmm6,%xmm7
	movups	%xmm7,%xmm8
	movups	%xmm8,%xmm9
	movups	%xmm9,%xmm10
	movups	%xmm10,%xmm11
	movups	%xmm11,%xmm12
	movups	%xmm12,%xmm13
	movups	%xmm13,%xmm14
	movups	%xmm14,%xmm15
	movups	%xmm15,16(%rdi)
	addq	$8,%rsp
	ret
	.size	xs_xmm,.-xs_xmm
