# feature: cpuext-crypto
# summary: Directive question: does `.cpu generic+simd+crypto` enable the Armv8.0 Cryptographic Extension? libgcrypt's gcry_cv_gcc_inline_asm_aarch64_crypto (HAVE_GCC_INLINE_ASM_AARCH64_CRYPTO): its SHA-1, SHA-256, AES and PMULL instructions after the NEON ones. No hwcap bit of its own: the CPU side is aes's, sha2's and pmull's (SHA-1 is HWCAP_SHA1, which no catalog feature asks)
# enable: .cpu generic+simd+crypto
# expect: 40 05 80 52 00 0c 01 0e 00 00 df 0c 00 08 28 5e 00 00 00 5e 00 10 00 5e 00 30 00 5e 00 18 28 5e 00 40 00 5e 00 50 00 5e 00 28 28 5e 00 60 1f 5e 00 48 28 4e 00 58 28 4e 00 68 28 4e 00 78 28 4e 00 e0 ff 0e 00 e0 ff 4e
# since: GNU as 2.40, clang-14, clang-19, clang-22
	movz	w0, #42
	dup	v0.8b, w0
	ld4	{v0.8b, v1.8b, v2.8b, v3.8b}, [x0], #32
	sha1h	s0, s0
	sha1c	q0, s0, v0.4s
	sha1p	q0, s0, v0.4s
	sha1su0	v0.4s, v0.4s, v0.4s
	sha1su1	v0.4s, v0.4s
	sha256h	q0, q0, v0.4s
	sha256h2	q0, q0, v0.4s
	sha256su0	v0.4s, v0.4s
	sha256su1	v0.4s, v0.4s, v31.4s
	aese	v0.16b, v0.16b
	aesd	v0.16b, v0.16b
	aesmc	v0.16b, v0.16b
	aesimc	v0.16b, v0.16b
	pmull	v0.1q, v0.1d, v31.1d
	pmull2	v0.1q, v0.2d, v31.2d
