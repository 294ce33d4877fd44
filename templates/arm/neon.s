# feature: neon
# summary: Advanced SIMD (NEON) data processing and element/structure loads and stores
# enable: .fpu neon
# hwcap: AT_HWCAP bit=12
# isa: arm
# expect: 44 08 22 f2
# since: Armv7-A (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fe000000 f2000000 ; ff100000 f4000000
# audit-thumb: ef000000 ef000000 ; ff100000 f9000000
	.syntax unified
	.arm
	vadd.i32	q0, q1, q2
