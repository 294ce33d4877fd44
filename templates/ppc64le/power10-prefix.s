# feature: power10-prefix
# summary: POWER10 / Power ISA 3.1 prefixed (8-byte) instructions: paddi, pld, pstd, plxv...
# enable: .machine power10
# hwcap2: AT_HWCAP2 bit=18
# expect: 00 00 00 06 01 00 64 38
# since: POWER10 (ISA 3.1); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fc000000 04000000
	paddi	3, 4, 1, 0
