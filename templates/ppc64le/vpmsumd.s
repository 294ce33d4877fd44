# feature: vpmsumd
# summary: POWER8 vector polynomial multiply-sum vpmsumb/h/w/d (carry-less multiply: GHASH, CRC)
# requires: altivec
# enable: .machine power8
# hwcap2: AT_HWCAP2 bit=25
# expect: c8 14 01 10
# since: POWER8 (ISA 2.07); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fc0007ff 10000408 ; fc0007ff 10000448 ; fc0007ff 10000488 ; fc0007ff 100004c8
	vpmsumd	0, 1, 2
