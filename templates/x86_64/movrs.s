# feature: movrs
# summary: MOVRS read-shared loads and PREFETCHRST2 (general-register forms probed; audit also counts the EVEX map 5 VMOVRS[B,W,D,Q], which need AVX10.2 as well)
# cpuid: leaf=7 subleaf=1 reg=eax bit=31
# expect: 48 0f 38 8b 08 0f 18 20
# since: Diamond Rapids CPUs; assembled here by clang-22 only (not GNU as 2.40, clang-19)
# audit: REX? 0f 38 8a /r ; REX? 0f 38 8b /r ; 66 REX? 0f 38 8b /r ; REX? 0f 18 /4 ; EVEX.F2.MAP5.W0 6f /r ; EVEX.F2.MAP5.W1 6f /r ; EVEX.F3.MAP5.W0 6f /r ; EVEX.F3.MAP5.W1 6f /r
# nasm: none
	movrs	(%rax),%rcx
	prefetchrst2	(%rax)
