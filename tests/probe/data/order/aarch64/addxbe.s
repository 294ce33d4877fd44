# feature: addxbe
# summary: the same word stored big-endian, which no A64 object holds: broken everywhere
# expect: 8b 02 00 20
	add	x0, x1, x2
