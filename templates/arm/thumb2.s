# feature: thumb2
# summary: Thumb-2: 32-bit Thumb instructions (first halfword 0xe800-0xffff; the old BL pair matches too). No hwcap bit: HWCAP_THUMB does not tell Thumb-2
# enable: .arch armv7-a
# isa: thumb
# expect: 01 eb 02 00
# since: Armv6T2, every Armv7-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit-thumb: f8000000 e8000000 ; f0000000 f0000000
	.syntax unified
	.thumb
	add.w	r0, r1, r2
	.arm
