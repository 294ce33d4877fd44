# feature: adda
# summary: A32 ADD r0, r1, r2: the word 0xe0810002 (Arm ARM A8.8.7) in instruction order (little-endian, as BE8 images store it)
# isa: arm
# expect: 02 00 81 e0
	.syntax unified
	.arm
	add	r0, r1, r2
