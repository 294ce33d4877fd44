# feature: apx-ccmp
# summary: APX conditional compare and test CCMPscc/CTESTscc (EVEX map 4, the flags for a false condition in EVEX.vvvv); LLVM added them a release after APX's first set
# requires: apx-f
# cpuid: leaf=7 subleaf=1 reg=edx bit=21
# xcr0: 0x80000
# expect: 62 f4 c4 04 3b 18 62 f4 8c 05 85 18
# since: binutils 2.43, llvm 19; assembled here by clang-19, clang-22 (not GNU as 2.40, clang-16)
# audit: EVEX.NP.MAP4.WIG 38 /r ; EVEX.NP.MAP4.WIG 39 /r ; EVEX.NP.MAP4.WIG 3a /r ; EVEX.NP.MAP4.WIG 3b /r ; EVEX.NP.MAP4.WIG 84 /r ; EVEX.NP.MAP4.WIG 85 /r ; EVEX.NP.MAP4.WIG 80 /7 ; EVEX.NP.MAP4.WIG 81 /7 ; EVEX.NP.MAP4.WIG 83 /7 ; EVEX.NP.MAP4.WIG f6 /0 ; EVEX.NP.MAP4.WIG f7 /0 ; EVEX.66.MAP4.WIG 38 /r ; EVEX.66.MAP4.WIG 39 /r ; EVEX.66.MAP4.WIG 3a /r ; EVEX.66.MAP4.WIG 3b /r ; EVEX.66.MAP4.WIG 84 /r ; EVEX.66.MAP4.WIG 85 /r ; EVEX.66.MAP4.WIG 80 /7 ; EVEX.66.MAP4.WIG 81 /7 ; EVEX.66.MAP4.WIG 83 /7 ; EVEX.66.MAP4.WIG f6 /0 ; EVEX.66.MAP4.WIG f7 /0
# nasm: none
	ccmpe	{dfv=of} (%rax),%rbx
	ctestne	{dfv=cf} %rbx,(%rax)
