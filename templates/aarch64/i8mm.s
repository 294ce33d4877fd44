# feature: i8mm
# summary: Int8 matrix multiply SMMLA/UMMLA/USMMLA, USDOT/SUDOT (FEAT_I8MM)
# enable: .arch armv8.2-a+i8mm
# enable: .arch_extension i8mm
# enable: .arch armv8.6-a+crc
# hwcap2: AT_HWCAP2 bit=13
# expect: 20 a4 82 4e
# since: Armv8.6-A (optional from 8.2); assembled here by GNU as 2.40, clang-19, clang-22
# audit: dfe0f400 4e80a400 ; bfe0fc00 0e809c00 ; bf40f400 0f00f000
	smmla	v0.4s, v1.16b, v2.16b
