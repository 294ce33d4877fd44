# feature: idiv
# summary: Integer divide SDIV/UDIV in ARM state (HWCAP_IDIVA; Thumb state is HWCAP_IDIVT, bit 18)
# enable: .arch armv7-a; .arch_extension idiv
# hwcap: AT_HWCAP bit=17
# isa: arm
# expect: 11 f2 10 e7
# since: Armv7VE (Cortex-A7/A15), Armv8-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 0fd0f0f0 0710f010
# audit-thumb: ffd0f0f0 fb90f0f0
	.syntax unified
	.arm
	sdiv	r0, r1, r2
