# feature: platform-as
# summary: Syntax question: libgcrypt's gcry_cv_gcc_aarch64_platform_as_ok (HAVE_COMPATIBLE_GCC_AARCH64_PLATFORM_AS): rotated and shifted register operands (EOR ... ROR #12, ADD ... ASR #12) and a vector EOR with arrangement specifiers. No hwcap bit: every AArch64 CPU runs them
# expect: 00 30 de ca 00 30 9e 8b 00 1c 3f 6e
# since: GNU as 2.40, clang-14, clang-19, clang-22
	eor	x0, x0, x30, ror #12
	add	x0, x0, x30, asr #12
	eor	v0.16b, v0.16b, v31.16b
