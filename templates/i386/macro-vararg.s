# feature: macro-vararg
# summary: Macro question: a GNU `.macro` parameter with `:vararg` takes the rest of the arguments, commas and all (FFmpeg's check_gas): the expansion `addl $1, %eax; addl $2, %ecx` is checked by its bytes
# expect: 83 c0 01 83 c1 02
# since: assembled here by GNU as 2.40 and clang-13 to clang-22; nasm and MASM have their own macro languages
# nasm: none
# masm: none
	.macro	asmcap_vararg first, rest:vararg
	addl	\first, %eax
	addl	\rest
	.endm
	asmcap_vararg $1, $2, %ecx
	.purgem	asmcap_vararg
