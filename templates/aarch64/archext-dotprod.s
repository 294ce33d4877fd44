# feature: archext-dotprod
# summary: Directive question: does `.arch_extension dotprod` by itself enable SDOT/UDOT? FFmpeg's HAVE_AS_ARCHEXT_DOTPROD_DIRECTIVE. No hwcap bit of its own: the CPU side is dotprod's
# enable: .arch_extension dotprod
# expect: 20 94 82 4e
# since: clang-19, clang-22 act on it; clang-14 does not know the name; GNU as 2.40 accepts it under armv8-a and ignores it
	sdot	v0.4s, v1.16b, v2.16b
