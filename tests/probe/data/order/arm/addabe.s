# feature: addabe
# summary: the A32 word stored big-endian (as a BE32 object holds it, before ld --be8): not instruction order, broken everywhere
# isa: arm
# expect: e0 81 00 02
	.syntax unified
	.arm
	add	r0, r1, r2
