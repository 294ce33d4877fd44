# feature: avx10.1-256
# summary: AVX10.1 at 128/256 bits (xmm/ymm): the AVX-512 set up to AVX512-FP16 under one enumeration; probed and audited by its FP16 arithmetic VADD/VSUB/VMUL/VDIVPH, VFMADD132/213/231PH (EVEX maps 5, 6), what an assembler must know beyond AVX-512 BW/DQ/VL
# requires: avx512vl
# cpuid: leaf=7 subleaf=1 reg=edx bit=19
# cpuid: leaf=36 subleaf=0 reg=ebx bits=7:0 min=1
# cpuid: leaf=36 subleaf=0 reg=ebx bit=17
# xcr0: 0xe6
# expect: 62 f5 74 28 58 c2 62 f6 75 28 98 c2
# since: AVX512-FP16 binutils 2.38, llvm 14 (not clang-13); the name AVX10.1 binutils 2.42, llvm 18; nasm 2.16.01 encodes VFMADD132PH as VFNMADD132PH (broken); the rest here assemble it, clang-13 aside
# audit: EVEX.256.NP.MAP5.W0 58 /r ; EVEX.256.NP.MAP5.W0 59 /r ; EVEX.256.NP.MAP5.W0 5c /r ; EVEX.256.NP.MAP5.W0 5e /r ; EVEX.256.66.MAP6.W0 98 /r ; EVEX.256.66.MAP6.W0 a8 /r ; EVEX.256.66.MAP6.W0 b8 /r ; EVEX.128.NP.MAP5.W0 58 /r ; EVEX.128.NP.MAP5.W0 59 /r ; EVEX.128.NP.MAP5.W0 5c /r ; EVEX.128.NP.MAP5.W0 5e /r ; EVEX.128.66.MAP6.W0 98 /r ; EVEX.128.66.MAP6.W0 a8 /r ; EVEX.128.66.MAP6.W0 b8 /r
	vaddph	%ymm2,%ymm1,%ymm0
	vfmadd132ph	%ymm2,%ymm1,%ymm0
