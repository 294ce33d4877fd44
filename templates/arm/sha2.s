# feature: sha2
# summary: AArch32 Crypto Extension SHA-256: SHA256H/H2/SU0/SU1
# requires: neon
# enable: .arch armv8-a; .fpu crypto-neon-fp-armv8
# hwcap2: AT_HWCAP2 bit=3
# isa: arm
# expect: 44 0c 02 f3
# since: Armv8-A AArch32 Cryptographic Extension (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ff800f50 f3000c40 ; ffbf0fd0 f3ba03c0
# audit-thumb: ff800f50 ff000c40 ; ffbf0fd0 ffba03c0
	.syntax unified
	.arm
	sha256h.32	q0, q1, q2
