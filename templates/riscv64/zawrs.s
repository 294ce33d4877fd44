# feature: zawrs
# summary: Wait on reservation set WRS.NTO/WRS.STO
# enable: .option arch, +zawrs
# hwprobe: key=4 bit=48
# expect: 73 00 d0 00
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: feffffff 00d00073
	wrs.nto
