# feature: lse
# summary: Large System Extensions atomics LDADD../SWP/CAS/CASP (FEAT_LSE)
# enable: .arch_extension lse
# hwcap: AT_HWCAP bit=8
# expect: 41 00 20 f8
# since: Armv8.1-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 3f208c00 38200000 ; 3f20fc00 38208000 ; 3fa07c00 08a07c00 ; bfa07c00 08207c00
	ldadd	x0, x1, [x2]
