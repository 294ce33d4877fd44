# feature: sb
# summary: Speculation barrier SB (FEAT_SB)
# enable: .arch_extension sb
# enable: .arch armv8.5-a+crc
# hwcap: AT_HWCAP bit=29
# expect: ff 30 03 d5
# since: Armv8.5-A; assembled here by GNU as 2.40, clang-19, clang-22
# audit: ffffffff d50330ff
	sb
