	section	.note.gnu.property	note alloc noexec nowrite align=8
	dd	4, 16, 5
	db	"GNU", 0
	dd	0xc0000002, 4, 3, 0
	section	.text
