# feature: intel-syntax
# summary: .intel_syntax noprefix (Intel operand order, no register prefix) and back with .att_syntax
# expect: 8d 4c 90 10 8b 43 08
# since: binutils 2.10, llvm 3.0 (nasm is Intel syntax throughout, without the directive)
# nasm: none
# masm: none
	.intel_syntax noprefix
	lea	ecx, [eax+edx*4+16]
	mov	eax, DWORD PTR [ebx+8]
	.att_syntax prefix
