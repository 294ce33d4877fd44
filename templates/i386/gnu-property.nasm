	section	.note.gnu.property	note alloc noexec nowrite align=4
	dd	4, 12, 5
	db	"GNU", 0
	dd	0xc0000002, 4, 3
	section	.text
