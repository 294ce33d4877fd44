# feature: sha3
# summary: EOR3 (FEAT_SHA3), enabled by its directive
# hwcap: AT_HWCAP bit=17
# enable: .arch armv8.2-a+sha3
# expect: 20 0c 02 ce
# audit: ffe08000 ce000000
	eor3	v0.16b, v1.16b, v2.16b, v3.16b
