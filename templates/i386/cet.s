# feature: cet
# summary: CET indirect-branch tracking landing pad (ENDBR32; a NOP on older CPUs)
# cpuid: leaf=7 subleaf=0 reg=edx bit=20
# expect: f3 0f 1e fb
# since: binutils 2.29, llvm 7, nasm 2.15.01
# audit: f3 0f 1e fb
	endbr32
