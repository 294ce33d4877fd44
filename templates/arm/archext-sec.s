# feature: archext-sec
# summary: Directive question: does `.arch_extension sec` enable SMC (the Security Extensions)? FFmpeg's HAVE_AS_ARCHEXT_SEC_DIRECTIVE (its `smc #0`). No hwcap bit: SMC traps to the secure monitor, user code never runs it
# enable: .arch_extension sec
# isa: arm
# expect: 70 00 60 e1
# since: GNU as 2.40 (on a v7-A base: without -march it refuses the extension, and takes SMC bare), clang-14, clang-19, clang-22
	.syntax unified
	.arm
	smc	#0
