# feature: zvkb
# summary: Vector cryptography bit manipulation VANDN/VBREV8/VREV8/VROL/VROR (also in Zvbb)
# requires: v
# enable: .option arch, +v, +zvkb
# hwprobe: key=4 bit=19
# expect: 57 00 11 06
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: fc00707f 04000057 ; fc00707f 04004057 ; fc0ff07f 48042057 ; fc0ff07f 4804a057 ; fc00707f 54000057 ; fc00707f 54004057 ; fc00707f 50000057 ; fc00707f 50004057 ; f800707f 50003057
	vandn.vv	v0, v1, v2
