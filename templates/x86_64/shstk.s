# feature: shstk
# summary: CET shadow-stack instructions (WRUSS, RDSSP, INCSSP, SAVEPREVSSP, SETSSBSY)
# cpuid: leaf=7 subleaf=0 reg=ecx bit=7
# expect: 66 48 0f 38 f5 03
# since: binutils 2.29, llvm 6, nasm 2.15
# audit: 66 REX? 0f 38 f5 /r ; f3 REX? 0f 1e /1 ; f3 REX? 0f ae /5 ; f3 0f 01 ea ; f3 0f 01 e8
	wrussq	%rax,(%rbx)
