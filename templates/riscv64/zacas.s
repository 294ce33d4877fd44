# feature: zacas
# summary: Atomic compare-and-swap AMOCAS.W/D/Q
# enable: .option arch, +zacas
# hwprobe: key=4 bit=34
# expect: 2f a5 c5 28
# since: ratified RISC-V extension; assembled here by clang-22, clang-19 -menable-experimental-extensions
# audit: f800707f 2800202f ; f800707f 2800302f ; f800707f 2800402f
	amocas.w	a0, a2, (a1)
