# feature: zvknhb
# summary: Vector SHA-256 and SHA-512 VSHA2MS/VSHA2CH/VSHA2CL (SEW=32 or 64; the instructions are zvknha's)
# requires: v
# enable: .option arch, +v, +zvknhb
# hwprobe: key=4 bit=23
# expect: 77 20 11 b6
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: fc00707f b4002077 ; fc00707f b8002077 ; fc00707f bc002077
	vsha2ms.vv	v0, v1, v2
