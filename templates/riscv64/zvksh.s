# feature: zvksh
# summary: Vector SM3 VSM3ME/VSM3C
# requires: v
# enable: .option arch, +v, +zvksh
# hwprobe: key=4 bit=25
# expect: 77 20 11 82
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: fc00707f 80002077 ; fc00707f ac002077
	vsm3me.vv	v0, v1, v2
