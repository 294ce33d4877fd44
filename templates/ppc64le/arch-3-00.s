# feature: arch-3-00
# summary: POWER9 / Power ISA 3.00 (libgcrypt's arch_3_00 check, stxvb16x): byte/halfword and DQ-form (lxv/stxv) vector loads and stores, darn, modulo, vmsumudm, cnttzd
# enable: .machine power9
# hwcap2: AT_HWCAP2 bit=23
# expect: d8 27 03 7c
# since: POWER9 (ISA 3.00); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fc0007fe 7c0007d8 ; fc0007fe 7c0006d8 ; fc0007fe 7c000758 ; fc0007fe 7c000658 ; fc1cfffe 7c0005e6 ; fc0007fe 7c000612 ; fc0007fe 7c000212 ; fc00003f 10000023 ; fc00fffe 7c000474 ; fc000007 f4000001 ; fc000007 f4000005
	stxvb16x	0, 3, 4
