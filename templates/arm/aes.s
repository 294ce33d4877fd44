# feature: aes
# summary: AArch32 Crypto Extension AES: AESE/AESD/AESMC/AESIMC
# requires: neon
# enable: .arch armv8-a; .fpu crypto-neon-fp-armv8
# hwcap2: AT_HWCAP2 bit=0
# isa: arm
# expect: 02 03 b0 f3
# since: Armv8-A AArch32 Cryptographic Extension (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffbf0f10 f3b00300
# audit-thumb: ffbf0f10 ffb00300
	.syntax unified
	.arm
	aese.8	q0, q1
