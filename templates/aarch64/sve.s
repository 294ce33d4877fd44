# feature: sve
# summary: Scalable Vector Extension (the whole SVE encoding space, op0=0010)
# enable: .arch_extension sve
# hwcap: AT_HWCAP bit=22
# expect: 20 00 e2 04
# since: Armv8.2-A (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 1e000000 04000000
	add	z0.d, z1.d, z2.d
