# feature: usermsr
# summary: USER_MSR user-mode MSR access URDMSR/UWRMSR, register forms (the memory forms of these opcodes are ENQCMD/ENQCMDS; the immediate forms are VEX map 7, which audit cannot decode yet)
# cpuid: leaf=7 subleaf=1 reg=edx bit=15
# expect: f2 0f 38 f8 c1 f3 0f 38 f8 c8
# since: Clearwater Forest CPUs; assembled here by clang-19, clang-22 (not GNU as 2.40)
# audit: f2 REX? 0f 38 f8 /r ; f3 REX? 0f 38 f8 /r
# nasm: none
	urdmsr	%rcx,%rax
	uwrmsr	%rax,%rcx
