# feature: fma
# summary: FMA3 fused multiply-add (VEX)
# requires: avx
# cpuid: leaf=1 subleaf=0 reg=ecx bit=12
# xcr0: 0x6
# expect: c4 e2 f5 b8 c2 c4 e2 71 a8 c2
# since: binutils 2.21, llvm 3.1, nasm 2.10
# audit: VEX.66.0F38.WIG 98 /r ; VEX.66.0F38.WIG a8 /r ; VEX.66.0F38.WIG b8 /r ; VEX.66.0F38.WIG 99 /r ; VEX.66.0F38.WIG a9 /r ; VEX.66.0F38.WIG b9 /r ; VEX.66.0F38.WIG 9a /r ; VEX.66.0F38.WIG aa /r ; VEX.66.0F38.WIG ba /r ; VEX.66.0F38.WIG 9c /r ; VEX.66.0F38.WIG ac /r ; VEX.66.0F38.WIG bc /r ; VEX.66.0F38.WIG 96 /r ; VEX.66.0F38.WIG a6 /r ; VEX.66.0F38.WIG b6 /r
	vfmadd231pd	%ymm2,%ymm1,%ymm0
	vfmadd213ps	%xmm2,%xmm1,%xmm0
