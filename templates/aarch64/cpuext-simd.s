# feature: cpuext-simd
# summary: Directive question: libgcrypt's gcry_cv_gcc_inline_asm_aarch64_neon (HAVE_GCC_INLINE_ASM_AARCH64_NEON), `.cpu generic+simd` and its MOVZ, DUP and post-indexed LD4. AdvSIMD is in every armv8-a base, so the directive's effect cannot be seen: the bytes show the check passes. No hwcap bit of its own: the CPU side is neon's
# enable: .cpu generic+simd
# expect: 40 05 80 52 00 0c 01 0e 00 00 df 0c
# since: GNU as 2.40, clang-14, clang-19, clang-22
	movz	w0, #42
	dup	v0.8b, w0
	ld4	{v0.8b, v1.8b, v2.8b, v3.8b}, [x0], #32
