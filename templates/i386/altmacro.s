# feature: altmacro
# summary: Macro question: GNU `.altmacro`, whose `%(EXPR)` passes a macro argument's value (FFmpeg's check_gas): the macro's expansion `addl $5, %eax` is checked by its bytes
# expect: 83 c0 05
# since: assembled here by GNU as 2.40 and clang-13 to clang-22; nasm and MASM have their own macro languages
# nasm: none
# masm: none
	.altmacro
	.macro	asmcap_altmacro reg, n
	addl	$\n, %\reg
	.endm
	asmcap_altmacro eax, %(2+3)
	.noaltmacro
	.purgem	asmcap_altmacro
