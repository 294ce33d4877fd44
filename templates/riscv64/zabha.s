# feature: zabha
# summary: Byte and halfword atomic memory operations AMO*.B/H
# enable: .option arch, +zabha
# hwprobe: key=4 bit=58
# expect: 2f 85 c5 00
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: 0000607f 0000002f
	amoadd.b	a0, a2, (a1)
