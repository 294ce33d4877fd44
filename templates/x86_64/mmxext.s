# feature: mmxext
# summary: the integer SSE instructions on MMX registers (PMAXUB, PSHUFW, PAVGB, PSADBW, ...; AMD's MMXEXT), FFmpeg's inline mmxext check (`pmaxub %mm0, %mm1`)
# cpuid: leaf=1 subleaf=0 reg=edx bit=25
# expect: 0f de c8
# since: Pentium III / Athlon CPUs; assembled here by every assembler tested. CPUID: SSE (Intel does not set AMD's MMXEXT bit 0x80000001:EDX[22]; every CPU with SSE has these)
# audit: REX? 0f 70 /r ib ; REX? 0f c4 /r ib ; REX? 0f c5 /r ib ; REX? 0f d7 /r ; REX? 0f da /r ; REX? 0f de /r ; REX? 0f e0 /r ; REX? 0f e3 /r ; REX? 0f e4 /r ; REX? 0f e7 /r ; REX? 0f ea /r ; REX? 0f ee /r ; REX? 0f f6 /r ; REX? 0f f7 /r
	pmaxub	%mm0,%mm1
