# feature: gnu-property
# summary: .note.gnu.property note (x86 IBT|SHSTK), the CET marker the linker ANDs over all objects
# formats: elf
# section: .note.gnu.property
# expect: 04 00 00 00 0c 00 00 00 05 00 00 00 47 4e 55 00 02 00 00 c0 04 00 00 00 03 00 00 00
# since: binutils 2.29, llvm 7, nasm 2.14.03 (note sections)
# masm: none
	.pushsection	.note.gnu.property,"a",@note
	.p2align	2
	.long	4
	.long	12
	.long	5
	.asciz	"GNU"
	.long	0xc0000002
	.long	4
	.long	3
	.p2align	2
	.popsection
