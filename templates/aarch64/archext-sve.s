# feature: archext-sve
# summary: Directive question: does `.arch_extension sve` by itself enable SVE (unpredicated ADD)? FFmpeg's and dav1d's HAVE_AS_ARCHEXT_SVE_DIRECTIVE. No hwcap bit of its own: the CPU side is sve's
# enable: .arch_extension sve
# expect: 20 00 e2 04
# since: GNU as 2.40, clang-14, clang-19, clang-22 act on it
	add	z0.d, z1.d, z2.d
