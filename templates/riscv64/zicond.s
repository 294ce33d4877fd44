# feature: zicond
# summary: Integer conditional operations CZERO.EQZ/CZERO.NEZ
# enable: .option arch, +zicond
# hwprobe: key=4 bit=35
# expect: 33 d5 c5 0e
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: fe00507f 0e005033
	czero.eqz	a0, a1, a2
