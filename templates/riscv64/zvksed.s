# feature: zvksed
# summary: Vector SM4 VSM4K/VSM4R
# requires: v
# enable: .option arch, +v, +zvksed
# hwprobe: key=4 bit=24
# expect: 77 20 18 a2
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: f80ff07f a0082077 ; fc00707f 84002077
	vsm4r.vv	v0, v1
