# feature: zvkg
# summary: Vector GCM/GMAC VGHSH/VGMUL
# requires: v
# enable: .option arch, +v, +zvkg
# hwprobe: key=4 bit=20
# expect: 77 20 11 b2
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: fc00707f b0002077 ; fc0ff07f a008a077
	vghsh.vv	v0, v1, v2
