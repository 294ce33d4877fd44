# feature: zcb
# summary: Compressed basic bit manipulation C.LBU/C.LHU/C.LH/C.SB/C.SH, C.ZEXT/SEXT.*, C.NOT, C.MUL (16-bit encodings)
# enable: .option arch, +zcb
# hwprobe: key=4 bit=44
# expect: 61 9d
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: f003 8000 ; fc43 9c41
	c.zext.b	a0
