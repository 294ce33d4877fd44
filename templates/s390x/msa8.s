# feature: msa8
# summary: message-security-assist extension 8 (z14, arch12): KMA, the AES-GCM instruction (OpenSSL's s390x_kma, libgcrypt's KMA .insn). The kernel has no hwcap bit for it (only MSA's; the KMA query function tells): the CPU answer is unknown
# requires: msa
# enable: .machine z14
# enable: .machine arch12
# expect: b9 29 40 26
# since: z14 (2017); GNU as 2.40, clang-19, clang-22 (`.machine z14' or -march=z14)
# audit: ffff0000 b9290000
	kma	%r2,%r4,%r6
