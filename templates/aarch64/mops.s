# feature: mops
# summary: Memory copy/set CPY*/SET* prologue/main/epilogue (FEAT_MOPS)
# enable: .arch_extension mops
# hwcap2: AT_HWCAP2 bit=43
# expect: 20 04 c2 19 20 44 c2 19 20 84 c2 19
# since: Armv8.8-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 3b200c00 19000400
	setp	[x0]!, x1!, x2
	setm	[x0]!, x1!, x2
	sete	[x0]!, x1!, x2
