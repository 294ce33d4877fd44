# feature: sha3
# summary: SHA-3 helpers EOR3/BCAX/RAX1/XAR (FEAT_SHA3)
# enable: .arch armv8.2-a+sha3
# hwcap: AT_HWCAP bit=17
# expect: 20 0c 02 ce
# since: Armv8.2-A (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffc08000 ce000000 ; ffe0fc00 ce608c00 ; ffe00000 ce800000
	eor3	v0.16b, v1.16b, v2.16b, v3.16b
