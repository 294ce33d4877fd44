/* wu_call(struct wu_call *c): call c->fn with c->arg[0..5] (Win64 ABI) while
 * every callee-saved register holds a sentinel from c, then store what those
 * registers hold after the call.  unwind.c checks them; its exception
 * handler resumes here, at wu_call_ret, from the context RtlVirtualUnwind
 * computed, so the values stored are the unwinder's restoration.
 *
 * struct wu_call: 0 fn; 8 arg[6]; 56 gpr_in[8] (rbx rbp rdi rsi r12-r15);
 * 120 xmm_in[10] (xmm6-xmm15); 280 gpr_out[8]; 344 xmm_out[10].
 * Frame: 8 pushes, then 0xd8 bytes: 0x00-0x2f outgoing arguments (shadow
 * space, arg 5 and 6), 0x30-0xcf xmm6-xmm15 saves, 0xd0 the struct pointer. */
	.text
	.globl	wu_call
	.globl	wu_call_ret
	.def	wu_call; .scl 2; .type 32; .endef
	.seh_proc wu_call
wu_call:
	push	%rbp
	.seh_pushreg %rbp
	push	%rbx
	.seh_pushreg %rbx
	push	%rdi
	.seh_pushreg %rdi
	push	%rsi
	.seh_pushreg %rsi
	push	%r12
	.seh_pushreg %r12
	push	%r13
	.seh_pushreg %r13
	push	%r14
	.seh_pushreg %r14
	push	%r15
	.seh_pushreg %r15
	sub	$0xd8, %rsp
	.seh_stackalloc 0xd8
	movdqa	%xmm6, 0x30(%rsp)
	.seh_savexmm %xmm6, 0x30
	movdqa	%xmm7, 0x40(%rsp)
	.seh_savexmm %xmm7, 0x40
	movdqa	%xmm8, 0x50(%rsp)
	.seh_savexmm %xmm8, 0x50
	movdqa	%xmm9, 0x60(%rsp)
	.seh_savexmm %xmm9, 0x60
	movdqa	%xmm10, 0x70(%rsp)
	.seh_savexmm %xmm10, 0x70
	movdqa	%xmm11, 0x80(%rsp)
	.seh_savexmm %xmm11, 0x80
	movdqa	%xmm12, 0x90(%rsp)
	.seh_savexmm %xmm12, 0x90
	movdqa	%xmm13, 0xa0(%rsp)
	.seh_savexmm %xmm13, 0xa0
	movdqa	%xmm14, 0xb0(%rsp)
	.seh_savexmm %xmm14, 0xb0
	movdqa	%xmm15, 0xc0(%rsp)
	.seh_savexmm %xmm15, 0xc0
	.seh_endprologue
	mov	%rcx, 0xd0(%rsp)
	mov	%rcx, %r11
	mov	40(%r11), %rax
	mov	%rax, 0x20(%rsp)
	mov	48(%r11), %rax
	mov	%rax, 0x28(%rsp)
	mov	56(%r11), %rbx
	mov	64(%r11), %rbp
	mov	72(%r11), %rdi
	mov	80(%r11), %rsi
	mov	88(%r11), %r12
	mov	96(%r11), %r13
	mov	104(%r11), %r14
	mov	112(%r11), %r15
	movdqu	120(%r11), %xmm6
	movdqu	136(%r11), %xmm7
	movdqu	152(%r11), %xmm8
	movdqu	168(%r11), %xmm9
	movdqu	184(%r11), %xmm10
	movdqu	200(%r11), %xmm11
	movdqu	216(%r11), %xmm12
	movdqu	232(%r11), %xmm13
	movdqu	248(%r11), %xmm14
	movdqu	264(%r11), %xmm15
	mov	8(%r11), %rcx
	mov	16(%r11), %rdx
	mov	24(%r11), %r8
	mov	32(%r11), %r9
	call	*(%r11)
wu_call_ret:
	mov	0xd0(%rsp), %r11
	mov	%rbx, 280(%r11)
	mov	%rbp, 288(%r11)
	mov	%rdi, 296(%r11)
	mov	%rsi, 304(%r11)
	mov	%r12, 312(%r11)
	mov	%r13, 320(%r11)
	mov	%r14, 328(%r11)
	mov	%r15, 336(%r11)
	movdqu	%xmm6, 344(%r11)
	movdqu	%xmm7, 360(%r11)
	movdqu	%xmm8, 376(%r11)
	movdqu	%xmm9, 392(%r11)
	movdqu	%xmm10, 408(%r11)
	movdqu	%xmm11, 424(%r11)
	movdqu	%xmm12, 440(%r11)
	movdqu	%xmm13, 456(%r11)
	movdqu	%xmm14, 472(%r11)
	movdqu	%xmm15, 488(%r11)
	movdqa	0x30(%rsp), %xmm6
	movdqa	0x40(%rsp), %xmm7
	movdqa	0x50(%rsp), %xmm8
	movdqa	0x60(%rsp), %xmm9
	movdqa	0x70(%rsp), %xmm10
	movdqa	0x80(%rsp), %xmm11
	movdqa	0x90(%rsp), %xmm12
	movdqa	0xa0(%rsp), %xmm13
	movdqa	0xb0(%rsp), %xmm14
	movdqa	0xc0(%rsp), %xmm15
	add	$0xd8, %rsp
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rsi
	pop	%rdi
	pop	%rbx
	pop	%rbp
	ret
	.seh_endproc
