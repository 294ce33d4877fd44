# feature: rdseed
# summary: RDSEED hardware entropy source
# cpuid: leaf=7 subleaf=0 reg=ebx bit=18
# expect: 0f c7 f8
# since: binutils 2.23, llvm 3.3, nasm 2.10.02
# audit: 0f c7 /7
	rdseed	%eax
