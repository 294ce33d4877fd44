# feature: zvknha
# summary: Vector SHA-256 VSHA2MS/VSHA2CH/VSHA2CL (SEW=32; the same instructions as zvknhb)
# requires: v
# enable: .option arch, +v, +zvknha
# hwprobe: key=4 bit=22
# expect: 77 20 11 b6
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: fc00707f b4002077 ; fc00707f b8002077 ; fc00707f bc002077
	vsha2ms.vv	v0, v1, v2
