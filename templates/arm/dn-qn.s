# feature: dn-qn
# summary: Directive question: typed NEON register aliases, `NAME .dn d1.i16` and `NAME .qn q1.i32`, used by an instruction without a type suffix (FFmpeg's HAVE_AS_DN_DIRECTIVE asks `.dn d0.i16`). No hwcap bit: an assembler feature
# enable: .fpu neon
# isa: arm
# expect: 01 18 11 f2 42 28 22 f2
# since: GNU as 2.40; clang (14, 19, 22) has no .dn/.qn
	.syntax unified
	.arm
asmcap_dn	.dn	d1.i16
asmcap_qn	.qn	q1.i32
	vadd	asmcap_dn, asmcap_dn, asmcap_dn
	vadd	asmcap_qn, asmcap_qn, asmcap_qn
	.unreq	asmcap_dn
	.unreq	asmcap_qn
