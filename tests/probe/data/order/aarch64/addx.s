# feature: addx
# summary: ADD x0, x1, x2 (shifted register, 64-bit): the word 0x8b020020 (Arm ARM C6.2), as A64 code stores it: little-endian in every object
# expect: 20 00 02 8b
	add	x0, x1, x2
