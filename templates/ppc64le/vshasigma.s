# feature: vshasigma
# summary: POWER8 vector SHA-2 sigma functions vshasigmaw/vshasigmad
# requires: altivec
# enable: .machine power8
# hwcap2: AT_HWCAP2 bit=25
# expect: c2 7e 01 10
# since: POWER8 (ISA 2.07); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fc0007ff 10000682 ; fc0007ff 100006c2
	vshasigmad	0, 1, 0, 15
