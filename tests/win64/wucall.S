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
#include "../perlasm/abicall.inc"

	.text
	.globl	wu_call
	.globl	wu_call_ret
	.def	wu_call; .scl 2; .type 32; .endef
	.seh_proc wu_call
wu_call:
	.irp	r, %rbp, %rbx, %rdi, %rsi, %r12, %r13, %r14, %r15
	push	\r
	.seh_pushreg \r
	.endr
	sub	$0xd8, %rsp
	.seh_stackalloc 0xd8
	.irp	n, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	movdqa	%xmm\n, 0x30+16*(\n-6)(%rsp)
	.seh_savexmm %xmm\n, 0x30+16*(\n-6)
	.endr
	.seh_endprologue
	mov	%rcx, 0xd0(%rsp)
	mov	%rcx, %r11
	win64_args %r11, 8
	slots_load movq, 8, %r11, 56, CALLEE_SAVED
	slots_load movdqu, 16, %r11, 120, XMMS
	call	*(%r11)
wu_call_ret:
	mov	0xd0(%rsp), %r11
	slots_store movq, 8, %r11, 280, CALLEE_SAVED
	slots_store movdqu, 16, %r11, 344, XMMS
	.irp	n, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	movdqa	0x30+16*(\n-6)(%rsp), %xmm\n
	.endr
	add	$0xd8, %rsp
	.irp	r, %r15, %r14, %r13, %r12, %rsi, %rdi, %rbx, %rbp
	pop	\r
	.endr
	ret
	.seh_endproc
