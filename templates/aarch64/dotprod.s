# feature: dotprod
# summary: Int8 dot products SDOT/UDOT, vector and by element (FEAT_DotProd)
# enable: .arch armv8.2-a+dotprod
# enable: .arch_extension dotprod
# enable: .arch armv8.4-a+crc
# hwcap: AT_HWCAP bit=20
# expect: 20 94 82 4e
# since: Armv8.4-A (optional from 8.2); assembled here by GNU as 2.40, clang-19, clang-22
# audit: 9fe0fc00 0e809400 ; 9fc0f400 0f80e000
	sdot	v0.4s, v1.16b, v2.16b
