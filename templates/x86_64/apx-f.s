# feature: apx-f
# summary: APX: the extended GPRs r16-r31 (REX2 prefix), NDD forms (EVEX map 4), PUSH2/POP2, PPX; the set LLVM 18 began with (CCMP/CTEST: apx-ccmp; NF, CFCMOVcc and ZU are not probed)
# cpuid: leaf=7 subleaf=1 reg=edx bit=21
# xcr0: 0x80000
# expect: d5 58 03 08 62 ec ec 10 03 08 62 fc 74 10 ff f0 d5 18 50
# since: binutils 2.42, llvm 18; assembled here by clang-19, clang-22 (not GNU as 2.40, clang-16)
# audit: REX2 * ; EVEX.MAP4 *
# nasm: none
	add	(%r16),%r17
	add	(%r16),%r17,%r18
	push2	%r16,%r17
	pushp	%r16
