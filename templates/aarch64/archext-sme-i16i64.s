# feature: archext-sme-i16i64
# summary: Directive question: does `.arch_extension sme-i16i64` by itself enable the SME 64-bit integer tile add ADDHA .d? FFmpeg's HAVE_AS_ARCHEXT_SME_I16I64_DIRECTIVE. No hwcap bit of its own: the CPU side is sme-i16i64's
# enable: .arch_extension sme-i16i64
# expect: 00 20 d0 c0
# since: clang-19, clang-22 act on it; GNU as 2.40 and clang-14 do not know the name (they call it `sme-i64`, sme-i16i64's second spelling)
	addha	za0.d, p0/m, p1/m, z0.d
