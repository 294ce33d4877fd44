# feature: zvbc
# summary: Vector carry-less multiply VCLMUL/VCLMULH
# requires: v
# enable: .option arch, +v, +zvbc
# hwprobe: key=4 bit=18
# expect: 57 20 11 32
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: fc00707f 30002057 ; fc00707f 30006057 ; fc00707f 34002057 ; fc00707f 34006057
	vclmul.vv	v0, v1, v2
