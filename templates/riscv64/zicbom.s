# feature: zicbom
# summary: Cache-block management CBO.CLEAN/CBO.FLUSH/CBO.INVAL
# enable: .option arch, +zicbom
# hwprobe: key=4 bit=55
# expect: 0f 20 15 00
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: ffc07fff 0000200f
	cbo.clean	(a0)
