# feature: vcipher
# summary: POWER8 vector AES rounds vcipher/vcipherlast/vncipher/vncipherlast and vsbox (ISA 2.07 Vector.Crypto)
# requires: altivec
# enable: .machine power8
# hwcap2: AT_HWCAP2 bit=25
# expect: 08 15 01 10
# since: POWER8 (ISA 2.07); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fc0007fe 10000508 ; fc0007fe 10000548 ; fc0007ff 100005c8
	vcipher	0, 1, 2
