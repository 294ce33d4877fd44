# feature: rcpc
# summary: Load-acquire RCpc LDAPR/LDAPRB/LDAPRH (FEAT_LRCPC)
# enable: .arch_extension rcpc
# hwcap: AT_HWCAP bit=15
# expect: 20 c0 bf f8
# since: Armv8.3-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 3ffffc00 38bfc000
	ldapr	x0, [x1]
