# feature: xop
# summary: AMD XOP (8F-escaped vector rotates, compares, multiply-accumulate; Bulldozer family)
# cpuid: leaf=0x80000001 subleaf=0 reg=ecx bit=11
# xcr0: 0x6
# expect: 8f e8 78 c2 c1 07 8f e8 70 ce c2 02 8f e9 78 c1 c1
# since: binutils 2.21, llvm 3.0, nasm 2.07
# audit: XOP.08.WIG 85 /r ib ; XOP.08.WIG 86 /r ib ; XOP.08.WIG 87 /r ib ; XOP.08.WIG 8e /r ib ; XOP.08.WIG 8f /r ib ; XOP.08.WIG 95 /r ib ; XOP.08.WIG 96 /r ib ; XOP.08.WIG 97 /r ib ; XOP.08.WIG 9e /r ib ; XOP.08.WIG 9f /r ib ; XOP.08.WIG a2 /r ib ; XOP.08.WIG a3 /r ib ; XOP.08.WIG a6 /r ib ; XOP.08.WIG b6 /r ib ; XOP.08.WIG c0 /r ib ; XOP.08.WIG c1 /r ib ; XOP.08.WIG c2 /r ib ; XOP.08.WIG c3 /r ib ; XOP.08.WIG cc /r ib ; XOP.08.WIG cd /r ib ; XOP.08.WIG ce /r ib ; XOP.08.WIG cf /r ib ; XOP.08.WIG ec /r ib ; XOP.08.WIG ed /r ib ; XOP.08.WIG ee /r ib ; XOP.08.WIG ef /r ib ; XOP.09.WIG 80 /r ; XOP.09.WIG 81 /r ; XOP.09.WIG 82 /r ; XOP.09.WIG 83 /r ; XOP.09.WIG 90 /r ; XOP.09.WIG 91 /r ; XOP.09.WIG 92 /r ; XOP.09.WIG 93 /r ; XOP.09.WIG 94 /r ; XOP.09.WIG 95 /r ; XOP.09.WIG 96 /r ; XOP.09.WIG 97 /r ; XOP.09.WIG 98 /r ; XOP.09.WIG 99 /r ; XOP.09.WIG 9a /r ; XOP.09.WIG 9b /r ; XOP.09.WIG c1 /r ; XOP.09.WIG c2 /r ; XOP.09.WIG c3 /r ; XOP.09.WIG c6 /r ; XOP.09.WIG c7 /r ; XOP.09.WIG cb /r ; XOP.09.WIG d1 /r ; XOP.09.WIG d2 /r ; XOP.09.WIG d3 /r ; XOP.09.WIG d6 /r ; XOP.09.WIG d7 /r ; XOP.09.WIG db /r ; XOP.09.WIG e1 /r ; XOP.09.WIG e2 /r ; XOP.09.WIG e3 /r
	vprotd	$7,%xmm1,%xmm0
	vpcomd	$2,%xmm2,%xmm1,%xmm0
	vphaddbw	%xmm1,%xmm0
