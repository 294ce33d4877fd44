# feature: zvbb
# summary: Vector basic bit manipulation VBREV/VCLZ/VCTZ/VCPOP.V, VWSLL and the Zvkb instructions
# requires: v
# enable: .option arch, +v, +zvbb
# hwprobe: key=4 bit=17
# expect: 57 20 16 4a
# since: Zvbb 1.0 (ratified 2023); assembled here by clang-19, clang-22
# audit: fc0ff07f 48052057 ; fc0ff07f 48062057 ; fc0ff07f 4806a057 ; fc0ff07f 48072057 ; fc00707f d4000057 ; fc00707f d4004057 ; fc00707f d4003057 ; fc00707f 04000057 ; fc00707f 04004057 ; fc0ff07f 48042057 ; fc0ff07f 4804a057 ; fc00707f 54000057 ; fc00707f 54004057 ; fc00707f 50000057 ; fc00707f 50004057 ; f800707f 50003057
	vclz.v	v0, v1
