# feature: flagm
# summary: Flag manipulation CFINV/RMIF/SETF8/SETF16 (FEAT_FlagM)
# enable: .arch_extension flagm
# enable: .arch armv8.4-a+crc
# hwcap: AT_HWCAP bit=27
# expect: 1f 40 00 d5
# since: Armv8.4-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffffffff d500401f ; ffe07c10 ba000400 ; ffffbc1f 3a00080d
	cfinv
