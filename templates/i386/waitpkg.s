# feature: waitpkg
# summary: TPAUSE, UMWAIT, UMONITOR (user-level wait; register forms only, ModRM 11)
# cpuid: leaf=7 subleaf=0 reg=ecx bit=5
# expect: 66 0f ae f1 f2 0f ae f1
# since: binutils 2.31.1, llvm 7, nasm 2.14
# audit: 66 0f ae f0 ; 66 0f ae f1 ; 66 0f ae f2 ; 66 0f ae f3 ; 66 0f ae f4 ; 66 0f ae f5 ; 66 0f ae f6 ; 66 0f ae f7 ; f2 0f ae f0 ; f2 0f ae f1 ; f2 0f ae f2 ; f2 0f ae f3 ; f2 0f ae f4 ; f2 0f ae f5 ; f2 0f ae f6 ; f2 0f ae f7 ; f3 0f ae f0 ; f3 0f ae f1 ; f3 0f ae f2 ; f3 0f ae f3 ; f3 0f ae f4 ; f3 0f ae f5 ; f3 0f ae f6 ; f3 0f ae f7
	tpause	%ecx
	umwait	%ecx
