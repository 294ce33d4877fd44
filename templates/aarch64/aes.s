# feature: aes
# summary: AES rounds AESE/AESD/AESMC/AESIMC (FEAT_AES)
# enable: .arch_extension aes
# hwcap: AT_HWCAP bit=3
# expect: 20 48 28 4e
# since: Armv8.0-A Cryptographic Extension (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffffcc00 4e284800
	aese	v0.16b, v1.16b
