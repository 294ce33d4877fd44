# feature: mte
# summary: Memory Tagging IRG/GMI/SUBP(S)/ADDG/SUBG/STG../LDG/STGP (FEAT_MTE; directive name memtag)
# enable: .arch armv8.5-a+memtag
# hwcap2: AT_HWCAP2 bit=18
# expect: 20 10 df 9a
# since: Armv8.5-A (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffe0f800 9ac01000 ; dfe0fc00 9ac00000 ; bfc0c000 91800000 ; ff200000 d9200000 ; ffc00000 68800000 ; ffc00000 69000000 ; ffc00000 69800000
	irg	x0, x1
