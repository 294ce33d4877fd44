# feature: ibm-asm
# summary: Syntax question: are registers written as bare numbers (`add 0, 0, 0'), IBM's syntax? FFmpeg's HAVE_IBM_ASM. No hwcap bit: a syntax, not an extension
# expect: 14 02 00 7c
# since: every Power assembler but old Darwin as; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
	add	0, 0, 0
