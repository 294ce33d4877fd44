# feature: sme2
# summary: ZERO {ZT0}: the directive alone passes on clang-14, the instruction does not
# hwcap2: AT_HWCAP2 bit=37
# enable: .arch armv9-a+sme2
# expect: 01 00 48 c0
# audit: ffffffff c0480001
	zero	{zt0}
