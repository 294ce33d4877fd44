# feature: nosuchext
# summary: an extension no assembler has: the directive passes on clang-14/19, the instruction needs sha3
# hwcap: AT_HWCAP bit=17
# enable: .arch armv8-a+nosuchext
# expect: 20 0c 02 ce
# audit: ffe08000 ce000000
	eor3	v0.16b, v1.16b, v2.16b, v3.16b
