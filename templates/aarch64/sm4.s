# feature: sm4
# summary: SM4 cipher instructions SM4E/SM4EKEY (FEAT_SM4)
# enable: .arch armv8.2-a+sm4
# hwcap: AT_HWCAP bit=19
# expect: 20 84 c0 ce
# since: Armv8.2-A (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fffffc00 cec08400 ; ffe0fc00 ce60c800
	sm4e	v0.4s, v1.4s
