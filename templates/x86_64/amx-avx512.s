# feature: amx-avx512
# summary: AMX-AVX512 tile rows to zmm TCVTROWD2PS, TILEMOVROW, TCVTROWPS2[BF16,PH][H,L] (Diamond Rapids)
# requires: amx-tile avx512f
# cpuid: leaf=30 subleaf=1 reg=eax bit=7
# xcr0: 0x600e6
# expect: 62 f2 7e 48 4a c1 62 f2 7d 48 4a c1
# since: binutils 2.44, llvm 20; assembled here by clang-22 only (not GNU as 2.40, clang-19)
# audit: EVEX.512.F3.0F38.W0 4a /r ; EVEX.512.66.0F38.W0 4a /r ; EVEX.512.NP.0F38.W0 6d /r ; EVEX.512.66.0F38.W0 6d /r ; EVEX.512.F2.0F38.W0 6d /r ; EVEX.512.F3.0F38.W0 6d /r ; EVEX.512.NP.0F3A.W0 07 /r ib ; EVEX.512.66.0F3A.W0 07 /r ib ; EVEX.512.F2.0F3A.W0 07 /r ib ; EVEX.512.F3.0F3A.W0 07 /r ib ; EVEX.512.F2.0F3A.W0 77 /r ib ; EVEX.512.F3.0F3A.W0 77 /r ib
# nasm: none
	tcvtrowd2ps	%eax,%tmm1,%zmm0
	tilemovrow	%eax,%tmm1,%zmm0
