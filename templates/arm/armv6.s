# feature: armv6
# summary: Armv6 SIMD: parallel add/subtract SADD16/UQSUB16/UHADD8... (FFmpeg's armv6 check `sadd16 r0, r0, r0`, zlib-ng's `uqsub16`). No hwcap bit: every Armv6 CPU has it
# enable: .arch armv6
# isa: arm
# expect: 10 0f 10 e6 72 0f 61 e6
# since: Armv6; assembled here by GNU as 2.40, clang-14, clang-19, clang-22 (in the armv7-a base too)
# audit: 0f800f10 06000f10
# audit-thumb: ff80f080 fa80f000
	.syntax unified
	.arm
	sadd16	r0, r0, r0
	uqsub16	r0, r1, r2
