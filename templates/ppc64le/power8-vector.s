# feature: power8-vector
# summary: POWER8 (ISA 2.07) vector additions: doubleword integer arithmetic, compares, counts and merges
# requires: altivec
# enable: .machine power8
# hwcap2: AT_HWCAP2 bit=31
# expect: c0 10 01 10
# since: POWER8 (ISA 2.07); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fc0007ff 100000c0 ; fc0007ff 100004c0 ; fc0007ff 100001c2 ; fc0007ff 100007c3 ; fc0007ff 100007c2 ; fc0007ff 1000078c ; fc0003ff 100000c7
	vaddudm	0, 1, 2
