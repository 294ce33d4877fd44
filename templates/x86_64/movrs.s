# feature: movrs
# summary: MOVRS read-shared loads and PREFETCHRST2 (general-register forms; the EVEX VMOVRS* are map 5, which audit cannot name yet)
# cpuid: leaf=7 subleaf=1 reg=eax bit=31
# expect: 48 0f 38 8b 08 0f 18 20
# since: Diamond Rapids CPUs; assembled here by clang-22 only (not GNU as 2.40, clang-19)
# audit: REX? 0f 38 8a /r ; REX? 0f 38 8b /r ; 66 REX? 0f 38 8b /r ; REX? 0f 18 /4
# nasm: none
	movrs	(%rax),%rcx
	prefetchrst2	(%rax)
