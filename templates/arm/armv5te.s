# feature: armv5te
# summary: Armv5TE DSP saturating arithmetic and 16-bit multiplies QADD/QSUB/QDADD/QDSUB, SMLA<x><y>/SMUL<x><y>/SMLAW/SMULW/SMLAL<x><y> (FFmpeg's armv5te check `qadd r0, r0, r0`)
# enable: .arch armv5te
# hwcap: AT_HWCAP bit=7
# isa: arm
# expect: 50 00 00 e1
# since: Armv5TE; assembled here by GNU as 2.40, clang-14, clang-19, clang-22 (in the armv7-a base too)
# audit: 0f900ff0 01000050 ; 0f900090 01000080
# audit-thumb: fff0f0c0 fa80f080 ; fff000c0 fb100000 ; fff000e0 fb300000 ; fff000c0 fbc00080
	.syntax unified
	.arm
	qadd	r0, r0, r0
