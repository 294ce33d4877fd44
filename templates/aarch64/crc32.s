# feature: crc32
# summary: CRC32/CRC32C checksum instructions (FEAT_CRC32)
# enable: .arch_extension crc
# hwcap: AT_HWCAP bit=7
# expect: 20 4c c2 9a
# since: Armv8.1-A (optional in 8.0); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 7fe0e000 1ac04000
	crc32x	w0, w1, x2
