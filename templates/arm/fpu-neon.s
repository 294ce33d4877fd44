# feature: fpu-neon
# summary: Directive question: does `.fpu neon` enable the NEON forms libgcrypt's gcry_cv_gcc_inline_asm_neon (HAVE_GCC_INLINE_ASM_NEON) assembles: a register-range VLD1 with writeback, VREV64, the two-operand VADD and a 64-bit VADD on D registers? No hwcap bit of its own: the CPU side is neon's
# enable: .fpu neon
# isa: arm
# expect: cd 02 20 f4 46 00 b0 f3 42 08 30 f2 03 38 32 f2
# since: GNU as 2.40, clang-14, clang-19, clang-22
	.syntax unified
	.arm
	vld1.64	{q0-q1}, [r0]!
	vrev64.8	q0, q3
	vadd.u64	q0, q1
	vadd.s64	d3, d2, d3
