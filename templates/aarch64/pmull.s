# feature: pmull
# summary: 64x64->128-bit polynomial multiply PMULL/PMULL2 .1q (FEAT_PMULL; assemblers enable it with +aes)
# enable: .arch_extension aes
# hwcap: AT_HWCAP bit=4
# expect: 20 e0 e2 0e
# since: Armv8.0-A Cryptographic Extension (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: bfe0fc00 0ee0e000
	pmull	v0.1q, v1.1d, v2.1d
