# feature: archext-i8mm
# summary: Directive question: does `.arch_extension i8mm` by itself enable SMMLA? FFmpeg's HAVE_AS_ARCHEXT_I8MM_DIRECTIVE. No hwcap bit of its own: the CPU side is i8mm's
# enable: .arch_extension i8mm
# expect: 20 a4 82 4e
# since: clang-19, clang-22 act on it; clang-14 does not know the name; GNU as 2.40 accepts it under armv8-a and ignores it
	smmla	v0.4s, v1.16b, v2.16b
