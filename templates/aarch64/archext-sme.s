# feature: archext-sme
# summary: Directive question: does `.arch_extension sme` by itself enable SME (ZERO {ZA})? FFmpeg's HAVE_AS_ARCHEXT_SME_DIRECTIVE. No hwcap bit of its own: the CPU side is sme's
# enable: .arch_extension sme
# expect: ff 00 08 c0
# since: GNU as 2.40, clang-14, clang-19, clang-22 act on it
	zero	{za}
