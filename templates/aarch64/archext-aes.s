# feature: archext-aes
# summary: Directive question: does `.arch_extension aes` by itself enable AESE? FFmpeg's HAVE_AS_ARCHEXT_AES_DIRECTIVE. No hwcap bit of its own: the CPU side is aes's
# enable: .arch_extension aes
# expect: 20 48 28 4e
# since: GNU as 2.40, clang-14, clang-19, clang-22 act on it
	aese	v0.16b, v1.16b
