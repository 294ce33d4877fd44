# feature: zicbop
# summary: Cache-block prefetch hints PREFETCH.R/PREFETCH.W/PREFETCH.I (ORI x0 hints)
# enable: .option arch, +zicbop
# hwprobe: key=4 bit=60
# expect: 13 60 15 00
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: 01f07fff 00006013 ; 01f07fff 00106013 ; 01f07fff 00306013
	prefetch.r	0(a0)
