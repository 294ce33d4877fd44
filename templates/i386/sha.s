# feature: sha
# summary: SHA-NI (SHA-1 and SHA-256 rounds and message schedule)
# cpuid: leaf=7 subleaf=0 reg=ebx bit=29
# expect: 0f 3a cc d1 03 0f 38 cb d1 0f 38 cc d9
# since: binutils 2.24, llvm 3.4, nasm 2.11
# audit: 0f 3a cc /r ib ; 0f 38 c8 /r ; 0f 38 c9 /r ; 0f 38 ca /r ; 0f 38 cb /r ; 0f 38 cc /r ; 0f 38 cd /r
	sha1rnds4	$3,%xmm1,%xmm2
	sha256rnds2	%xmm0,%xmm1,%xmm2
	sha256msg1	%xmm1,%xmm3
