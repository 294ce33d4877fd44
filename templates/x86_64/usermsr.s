# feature: usermsr
# summary: USER_MSR user-mode MSR access URDMSR/UWRMSR, register forms (the memory forms of these opcodes are ENQCMD/ENQCMDS); audit also counts the immediate forms, VEX map 7 and APX's EVEX map 7
# cpuid: leaf=7 subleaf=1 reg=edx bit=15
# expect: f2 0f 38 f8 c1 f3 0f 38 f8 c8
# since: Clearwater Forest CPUs; assembled here by clang-19, clang-22 (not GNU as 2.40)
# audit: f2 REX? 0f 38 f8 /r ; f3 REX? 0f 38 f8 /r ; VEX.128.F2.MAP7.W0 f8 /0 id ; VEX.128.F3.MAP7.W0 f8 /0 id ; EVEX.128.F2.MAP7.W0 f8 /0 id ; EVEX.128.F3.MAP7.W0 f8 /0 id
# nasm: none
	urdmsr	%rcx,%rax
	uwrmsr	%rax,%rcx
