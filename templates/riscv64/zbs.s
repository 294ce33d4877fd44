# feature: zbs
# summary: Single-bit BCLR/BEXT/BINV/BSET and their immediate forms
# enable: .option arch, +zbs
# hwprobe: key=4 bit=5
# expect: 33 95 c5 28
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fe00707f 48001033 ; fe00707f 48005033 ; fe00707f 68001033 ; fe00707f 28001033 ; fc00707f 48001013 ; fc00707f 48005013 ; fc00707f 68001013 ; fc00707f 28001013
	bset	a0, a1, a2
