# feature: seh
# summary: Win64 SEH unwind directives (.seh_proc ... .seh_endproc -> .pdata/.xdata)
# formats: coff
# section: .xdata
# expect: 01 01 01 00 01 50 00 00
# since: binutils 2.21, llvm 3.5 (nasm has no SEH directives)
# nasm: none
	.seh_proc	asmcap_seh_fn
asmcap_seh_fn:
	pushq	%rbp
	.seh_pushreg	%rbp
	.seh_endprologue
	popq	%rbp
	ret
	.seh_endproc
