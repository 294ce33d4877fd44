# feature: rdrand
# summary: RDRAND hardware random numbers
# cpuid: leaf=1 subleaf=0 reg=ecx bit=30
# expect: 0f c7 f0
# since: binutils 2.21, llvm 3.2, nasm 2.10
# audit: 0f c7 /6
	rdrand	%eax
