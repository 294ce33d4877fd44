# feature: func
# summary: Directive question: `.func NAME` / `.endfunc` around a function (dav1d's and x264's HAVE_AS_FUNC, asked on aarch64 as on arm); checked by the function's bytes between them, as the probe sees no debug sections. No hwcap bit: an assembler feature
# expect: 20 00 02 8b
# since: GNU as 2.40; clang (14, 19, 22) has no .func
	.func	asmcap_func
asmcap_func:
	add	x0, x1, x2
	.endfunc
