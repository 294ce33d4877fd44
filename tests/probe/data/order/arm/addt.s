# feature: addt
# summary: Thumb ADD.W r0, r1, r2: the halfwords 0xeb01 0x0002 (Arm ARM A8.8.7, T3), each little-endian
# isa: thumb
# expect: 01 eb 02 00
	.syntax unified
	.thumb
	add.w	r0, r1, r2
	.arm
