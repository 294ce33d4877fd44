# feature: zbkb
# summary: Bit manipulation for cryptography PACK/PACKH/PACKW/BREV8 and the rotates/ANDN/REV8 it shares with Zbb
# enable: .option arch, +zbkb
# hwprobe: key=4 bit=8
# expect: 33 c5 c5 08
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fe00707f 08004033 ; fe00707f 08007033 ; fe00707f 0800403b ; fff0707f 68705013 ; fe00707f 40007033 ; fe00707f 40006033 ; fe00707f 40004033 ; fe00707f 60001033 ; fe00707f 60005033 ; fc00707f 60005013 ; fe00707f 6000103b ; fe00707f 6000503b ; fe00707f 6000501b ; fff0707f 6b805013
	pack	a0, a1, a2
