# feature: archext-sme2
# summary: Directive question: does `.arch_extension sme2` by itself enable SME2 (ZERO {ZT0})? FFmpeg's HAVE_AS_ARCHEXT_SME2_DIRECTIVE. No hwcap bit of its own: the CPU side is sme2's
# enable: .arch_extension sme2
# expect: 01 00 48 c0
# since: clang-19, clang-22 act on it; GNU as 2.40 and clang-14 do not know the name
	zero	{zt0}
