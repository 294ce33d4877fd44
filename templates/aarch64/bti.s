# feature: bti
# summary: Branch Target Identification landing pads BTI {c,j,jc} (FEAT_BTI; a hint, NOP on older CPUs)
# enable: .arch armv8.5-a
# hwcap2: AT_HWCAP2 bit=17
# expect: 5f 24 03 d5
# since: Armv8.5-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffffff3f d503241f
	bti	c
