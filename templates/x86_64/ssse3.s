# feature: ssse3
# summary: SSSE3 byte shuffles, horizontal adds, alignr (legacy SSE encoding)
# cpuid: leaf=1 subleaf=0 reg=ecx bit=9
# expect: 66 0f 38 00 c1 66 0f 3a 0f c1 04 66 0f 38 04 d3
# since: binutils 2.17, llvm 2.2, nasm 2.00
# audit: 66 REX? 0f 38 00 /r ; 66 REX? 0f 38 01 /r ; 66 REX? 0f 38 02 /r ; 66 REX? 0f 38 03 /r ; 66 REX? 0f 38 04 /r ; 66 REX? 0f 38 05 /r ; 66 REX? 0f 38 06 /r ; 66 REX? 0f 38 07 /r ; 66 REX? 0f 38 08 /r ; 66 REX? 0f 38 09 /r ; 66 REX? 0f 38 0a /r ; 66 REX? 0f 38 0b /r ; 66 REX? 0f 38 1c /r ; 66 REX? 0f 38 1d /r ; 66 REX? 0f 38 1e /r ; REX? 0f 38 00 /r ; REX? 0f 38 01 /r ; REX? 0f 38 02 /r ; REX? 0f 38 03 /r ; REX? 0f 38 04 /r ; REX? 0f 38 05 /r ; REX? 0f 38 06 /r ; REX? 0f 38 07 /r ; REX? 0f 38 08 /r ; REX? 0f 38 09 /r ; REX? 0f 38 0a /r ; REX? 0f 38 0b /r ; REX? 0f 38 1c /r ; REX? 0f 38 1d /r ; REX? 0f 38 1e /r ; 66 REX? 0f 3a 0f /r ib ; REX? 0f 3a 0f /r ib
	pshufb	%xmm1,%xmm0
	palignr	$4,%xmm1,%xmm0
	pmaddubsw	%xmm3,%xmm2
