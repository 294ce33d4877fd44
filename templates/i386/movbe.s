# feature: movbe
# summary: MOVBE byte-swapping load and store
# cpuid: leaf=1 subleaf=0 reg=ecx bit=22
# expect: 0f 38 f0 07 0f 38 f1 0e
# since: binutils 2.19, llvm 2.9, nasm 2.03
# audit: 0f 38 f0 /r ; 0f 38 f1 /r
	movbe	(%edi),%eax
	movbe	%ecx,(%esi)
