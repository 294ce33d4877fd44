# feature: zba
# summary: Address generation SH1ADD/SH2ADD/SH3ADD(.UW), ADD.UW, SLLI.UW
# enable: .option arch, +zba
# hwprobe: key=4 bit=3
# expect: 33 a5 c5 20
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fe00707f 20002033 ; fe00707f 20004033 ; fe00707f 20006033 ; fe00707f 0800003b ; fe00707f 2000203b ; fe00707f 2000403b ; fe00707f 2000603b ; fc00707f 0800101b
	sh1add	a0, a1, a2
