# feature: sme2
# summary: SME2: multi-vector instructions (0xC1 group) and ZT0 (ZERO/LDR/STR ZT0)
# requires: sme
# enable: .arch_extension sme2
# hwcap2: AT_HWCAP2 bit=37
# expect: 01 00 48 c0
# since: Armv9.2-A (optional); assembled here by clang-19, clang-22
# audit: ff000000 c1000000 ; ffffffff c0480001 ; ffdffc1f e11f8000
	zero	{zt0}
