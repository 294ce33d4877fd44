# feature: archext-sha3
# summary: Directive question: does `.arch_extension sha3` by itself enable SHA-3 (EOR3)? FFmpeg's HAVE_AS_ARCHEXT_SHA3_DIRECTIVE. No hwcap bit of its own: the CPU side is sha3's
# enable: .arch_extension sha3
# expect: 20 0c 02 ce
# since: clang-14, clang-19, clang-22 act on it; GNU as 2.40 accepts it under armv8-a and ignores it (its sha3 needs an armv8.2-a base: sha3's first spelling)
	eor3	v0.16b, v1.16b, v2.16b, v3.16b
