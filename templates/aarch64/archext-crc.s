# feature: archext-crc
# summary: Directive question: does `.arch_extension crc` by itself enable CRC32X? FFmpeg's HAVE_AS_ARCHEXT_CRC_DIRECTIVE. No hwcap bit of its own: the CPU side is crc32's
# enable: .arch_extension crc
# expect: 20 4c c2 9a
# since: GNU as 2.40, clang-14, clang-19, clang-22 act on it
	crc32x	w0, w1, x2
