# feature: sse4.2
# summary: SSE4.2 CRC32, PCMPGTQ and the string compares (legacy SSE encoding)
# cpuid: leaf=1 subleaf=0 reg=ecx bit=20
# expect: f2 0f 38 f1 c1 66 0f 38 37 c1
# since: binutils 2.18, llvm 2.3, nasm 2.00
# audit: f2 0f 38 f0 /r ; f2 0f 38 f1 /r ; 66 0f 38 37 /r ; 66 0f 3a 60 /r ib ; 66 0f 3a 61 /r ib ; 66 0f 3a 62 /r ib ; 66 0f 3a 63 /r ib
	crc32l	%ecx,%eax
	pcmpgtq	%xmm1,%xmm0
