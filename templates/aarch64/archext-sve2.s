# feature: archext-sve2
# summary: Directive question: does `.arch_extension sve2` by itself enable SVE2 (EOR3)? FFmpeg's and dav1d's HAVE_AS_ARCHEXT_SVE2_DIRECTIVE. No hwcap bit of its own: the CPU side is sve2's
# enable: .arch_extension sve2
# expect: 40 38 21 04
# since: GNU as 2.40, clang-14, clang-19, clang-22 act on it
	eor3	z0.d, z0.d, z1.d, z2.d
