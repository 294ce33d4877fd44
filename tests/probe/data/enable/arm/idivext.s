# feature: idivext
# summary: SDIV in ARM state enabled by `.arch_extension idiv' alone, the spelling GNU as refuses unless the base architecture is v7-A or v7-R (its default base takes every instruction)
# enable: .arch_extension idiv
# hwcap: AT_HWCAP bit=17
# isa: arm
# expect: 11 f2 10 e7
# since: Armv7VE
	.syntax unified
	.arm
	sdiv	r0, r1, r2
