# feature: func
# summary: Directive question: `.func NAME` / `.endfunc` around a function (FFmpeg's HAVE_AS_FUNC); checked by the function's bytes between them, as the probe sees no debug sections. No hwcap bit: an assembler feature
# isa: arm
# expect: 02 00 81 e0
# since: GNU as 2.40; clang (14, 19, 22) has no .func
	.syntax unified
	.arm
	.func	asmcap_func
asmcap_func:
	add	r0, r1, r2
	.endfunc
