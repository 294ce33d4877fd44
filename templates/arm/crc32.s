# feature: crc32
# summary: CRC32/CRC32C checksum instructions (AArch32 Armv8)
# enable: .arch armv8-a; .arch_extension crc
# hwcap2: AT_HWCAP2 bit=4
# isa: arm
# expect: 42 00 41 e1
# since: Armv8-A AArch32 (optional in 8.0); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 0f900df0 01000040
# audit-thumb: ffe0f0c0 fac0f080
	.syntax unified
	.arm
	crc32w	r0, r1, r2
