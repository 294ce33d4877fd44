# feature: sve2
# summary: SVE2: bitwise ternary EOR3/BCAX/BSL*, unpredicated MUL/SMULH/UMULH/PMUL, SQRDMLAH/SH, the 0x45 integer group
# requires: sve
# enable: .arch_extension sve2
# hwcap2: AT_HWCAP2 bit=1
# expect: 40 38 21 04
# since: Armv9.0-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ff20f800 04203800 ; ff20f000 04206000 ; ff20f800 44007000 ; ff000000 45000000
	eor3	z0.d, z0.d, z1.d, z2.d
