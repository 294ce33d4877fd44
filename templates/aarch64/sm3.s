# feature: sm3
# summary: SM3 hash instructions SM3SS1/SM3TT*/SM3PARTW1/2 (FEAT_SM3; assemblers enable it with +sm4)
# enable: .arch armv8.2-a+sm4
# hwcap: AT_HWCAP bit=18
# expect: 20 c0 62 ce
# since: Armv8.2-A (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffe08000 ce400000 ; ffe0c000 ce408000 ; ffe0f800 ce60c000
	sm3partw1	v0.4s, v1.4s, v2.4s
