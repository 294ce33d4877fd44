# feature: altivec
# summary: AltiVec/VMX 128-bit vector unit (Power ISA 2.03 Vector category: opcode 4 and the lvx/stvx family)
# enable: .machine altivec
# enable: .machine power7
# hwcap: AT_HWCAP bit=28
# expect: 00 10 01 10
# since: POWER ISA 2.03 (PPC970 / POWER6); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fc000000 10000000 ; fc0007fe 7c0000ce ; fc0007fe 7c0001ce ; fc0007fe 7c00000c ; fc0007fe 7c00004c ; fc0007fe 7c00000e ; fc0007fe 7c00004e ; fc0007fe 7c00008e ; fc0007fe 7c0002ce ; fc0007fe 7c00010e ; fc0007fe 7c00014e ; fc0007fe 7c00018e ; fc0007fe 7c0003ce
	vaddubm	0, 1, 2
