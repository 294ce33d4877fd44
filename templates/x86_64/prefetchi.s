# feature: prefetchi
# summary: PREFETCHIT0/PREFETCHIT1 code prefetch (RIP-relative only; other memory forms are NOPs)
# cpuid: leaf=7 subleaf=1 reg=edx bit=14
# expect: 0f 18 3d 00 00 00 00 0f 18 35 00 00 00 00
# since: Granite Rapids CPUs; assembled here by GNU as 2.40, clang-16, clang-19, clang-22
# audit: REX? 0f 18 /7 ; REX? 0f 18 /6
# nasm: none
	prefetchit0	0(%rip)
	prefetchit1	0(%rip)
