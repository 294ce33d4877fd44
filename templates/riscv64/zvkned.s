# feature: zvkned
# summary: Vector AES VAESEF/VAESEM/VAESDF/VAESDM/VAESZ/VAESKF1/VAESKF2
# requires: v
# enable: .option arch, +v, +zvkned
# hwprobe: key=4 bit=21
# expect: 77 a0 11 a2
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: f80e707f a0002077 ; fc0ff07f a403a077 ; fc00707f 88002077 ; fc00707f a8002077
	vaesef.vv	v0, v1
