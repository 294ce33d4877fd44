# feature: bf16
# summary: BFloat16 BFDOT/BFMMLA/BFMLALB/T/BFCVT* (FEAT_BF16)
# enable: .arch_extension bf16
# enable: .arch armv8.6-a+crc
# hwcap2: AT_HWCAP2 bit=14
# expect: 20 fc 42 6e
# since: Armv8.6-A (optional from 8.2); assembled here by GNU as 2.40, clang-19, clang-22
# audit: bfe0fc00 2e40fc00 ; ffe0fc00 6e40ec00 ; bfe0fc00 2ec0fc00 ; fffffc00 1e634000 ; bffffc00 0ea16800 ; bfc0f400 0f40f000 ; bfc0f400 0fc0f000
	bfdot	v0.4s, v1.8h, v2.8h
