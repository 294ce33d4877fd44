# feature: zihintpause
# summary: PAUSE hint (a FENCE encoding: runs as a fence where the hint is unknown)
# enable: .option arch, +zihintpause
# hwprobe: key=4 bit=36
# expect: 0f 00 00 01
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: ffffffff 0100000f
	pause
