# feature: zbb
# summary: Basic bit manipulation CLZ/CTZ/CPOP(W), MIN/MAX(U), ORC.B, ZEXT.H, SEXT.B/H and the rotates/ANDN/REV8 it shares with Zbkb
# enable: .option arch, +zbb
# hwprobe: key=4 bit=4
# expect: 13 95 05 60
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fe00707f 60001013 ; fe00707f 6000101b ; fe00407f 0a004033 ; fff0707f 28705013 ; fff0707f 0800403b ; fe00707f 40007033 ; fe00707f 40006033 ; fe00707f 40004033 ; fe00707f 60001033 ; fe00707f 60005033 ; fc00707f 60005013 ; fe00707f 6000103b ; fe00707f 6000503b ; fe00707f 6000501b ; fff0707f 6b805013
	clz	a0, a1
