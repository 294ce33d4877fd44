# feature: cfi-negate-ra-state
# summary: Directive question: `.cfi_negate_ra_state` writes DW_CFA_AARCH64_negate_ra_state (0x2d) into the FDE after PACIASP (the Linux kernel's AS_HAS_CFI_NEGATE_RA_STATE). No hwcap bit: an assembler feature
# section: .eh_frame
# expect: 10 00 00 00 00 00 00 00 01 7a 52 00 04 78 1e 01 1b 0c 1f 00 10 00 00 00 18 00 00 00 00 00 00 00 08 00 00 00 00 41 2d 00
# expect: 10 00 00 00 00 00 00 00 01 7a 52 00 01 7c 1e 01 1b 0c 1f 00 10 00 00 00 18 00 00 00 00 00 00 00 08 00 00 00 00 44 2d 00
# expect: 00 00 00 10 00 00 00 00 01 7a 52 00 04 78 1e 01 1b 0c 1f 00 00 00 00 10 00 00 00 18 00 00 00 00 00 00 00 08 00 41 2d 00
# expect: 00 00 00 10 00 00 00 00 01 7a 52 00 01 7c 1e 01 1b 0c 1f 00 00 00 00 10 00 00 00 18 00 00 00 00 00 00 00 08 00 44 2d 00
# since: GNU as 2.40, clang-14, clang-19, clang-22 (GNU as writes code alignment 4, clang 1: the two CIEs; big-endian objects: the last two lines)
	.cfi_startproc
	hint	#25
	.cfi_negate_ra_state
	hint	#29
	.cfi_endproc
