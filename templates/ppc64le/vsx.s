# feature: vsx
# summary: Vector-Scalar Extension (Power ISA 2.06: the 64 VSRs, opcode 60, the lxvd2x/stxvd2x loads and stores, and ISA 3.00's lxv/stxv)
# enable: .machine power7
# enable: .machine vsx
# hwcap: AT_HWCAP bit=7
# expect: 00 13 01 f0
# since: POWER7 (ISA 2.06); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fc000000 f0000000 ; fc0007fe 7c000698 ; fc0007fe 7c000798 ; fc0007fe 7c000618 ; fc0007fe 7c000718 ; fc0007fe 7c000298 ; fc0007fe 7c000498 ; fc0007fe 7c000598 ; fc000007 f4000001 ; fc000007 f4000005
	xvadddp	0, 1, 2
