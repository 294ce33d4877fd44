# feature: cfi
# summary: .cfi_* call-frame directives (DWARF unwind tables in .eh_frame)
# section: .eh_frame,__eh_frame
# expect: nonempty
# since: binutils 2.17, llvm 2.8 (nasm has no CFI directives)
# nasm: none
# masm: none
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	popq	%rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
