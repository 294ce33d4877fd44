# feature: sha2
# summary: SHA-256 rounds and schedule SHA256H/H2/SU0/SU1 (FEAT_SHA256; SHA-1 has its own hwcap bit)
# enable: .arch_extension sha2
# hwcap: AT_HWCAP bit=6
# expect: 20 40 02 5e
# since: Armv8.0-A Cryptographic Extension (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffe0cc00 5e004000 ; fffffc00 5e282800
	sha256h	q0, q1, v2.4s
