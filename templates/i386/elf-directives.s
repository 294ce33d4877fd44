# feature: elf-directives
# summary: ELF .type NAME,@function and .size NAME,.-NAME, and an expression as an immediate
# formats: elf
# expect: bd 0a 00 00 00 c3
# since: binutils 2.10, llvm 3.0 (nasm: `global NAME:function` instead)
# nasm: none
# masm: none
	.type	asmcap_elf_fn,@function
asmcap_elf_fn:
	movl	$(123456789/12345678),%ebp
	ret
	.size	asmcap_elf_fn,.-asmcap_elf_fn
