# feature: zicboz
# summary: Cache-block zero CBO.ZERO
# enable: .option arch, +zicboz
# hwprobe: key=4 bit=6
# expect: 0f 20 45 00
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: fff07fff 0040200f
	cbo.zero	(a0)
