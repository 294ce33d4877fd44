# feature: dflt
# summary: deflate-conversion facility (z15, arch13): DFLTCC, zlib-ng's and the Linux kernel's hardware deflate. Audit: DFLTCC
# enable: .machine z15
# enable: .machine arch13
# hwcap: AT_HWCAP bit=18
# expect: b9 39 60 24
# since: z15 (2019); GNU as 2.40, clang-19, clang-22 (`.machine z15' or -march=z15)
# audit: ffff0000 b9390000
	dfltcc	%r2,%r4,%r6
