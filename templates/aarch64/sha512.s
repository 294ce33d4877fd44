# feature: sha512
# summary: SHA-512 rounds and schedule SHA512H/H2/SU0/SU1 (FEAT_SHA512; assemblers enable it with +sha3)
# enable: .arch_extension sha3
# hwcap: AT_HWCAP bit=21
# expect: 20 80 62 ce
# since: Armv8.2-A (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffe0fc00 ce608000 ; ffe0fc00 ce608400 ; ffe0fc00 ce608800 ; fffffc00 cec08000
	sha512h	q0, q1, v2.2d
