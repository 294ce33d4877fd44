# feature: sha3late
# summary: EOR3 with no directive: passes only where the flags enable SHA3, or after another snippet's .arch
# hwcap: AT_HWCAP bit=17
# expect: 20 0c 02 ce
# audit: ffe08000 ce000000
	eor3	v0.16b, v1.16b, v2.16b, v3.16b
