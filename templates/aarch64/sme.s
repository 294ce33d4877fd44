# feature: sme
# summary: Scalable Matrix Extension (the SME encoding space, op0=1 op1=0000; SMSTART/SMSTOP)
# enable: .arch_extension sme
# hwcap2: AT_HWCAP2 bit=23
# expect: ff 00 08 c0
# since: Armv9.2-A (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 9e000000 80000000 ; fffff8ff d503407f
	zero	{za}
