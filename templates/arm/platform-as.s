# feature: platform-as
# summary: Syntax question: libgcrypt's gcry_cv_gcc_arm_platform_as_ok (HAVE_COMPATIBLE_GCC_ARM_PLATFORM_AS): UAL syntax, a rotated register operand (ADD ... ROR #12), ELF .size and .type NAME,%function; the probe sees the bytes, not the symbol's size and type. No hwcap bit: every Armv7 CPU runs it
# isa: arm
# expect: 64 06 80 e0
# since: GNU as 2.40, clang-14, clang-19, clang-22
	.syntax unified
	.arm
asmcap_platform_as:
	add	r0, r0, r4, ror #12
	.size	asmcap_platform_as, .-asmcap_platform_as
	.type	asmcap_platform_as, %function
