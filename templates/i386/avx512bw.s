# feature: avx512bw
# summary: AVX-512 byte and word operations, 64-bit mask registers
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ebx bit=30
# xcr0: 0xe6
# expect: 62 f2 f5 48 8d c2 c4 e1 f8 90 d1
# since: binutils 2.25, llvm 3.7, nasm 2.11
# audit: EVEX.66.0F.WIG fc /r ; EVEX.66.0F.WIG fd /r ; EVEX.66.0F38.W1 8d /r ; EVEX.F2.0F.W0 6f /r ; EVEX.F2.0F.W1 6f /r ; EVEX.66.0F38.WIG 00 /r ; VEX.NP.0F.W1 90 /r ; VEX.66.0F.W1 90 /r ; VEX.F2.0F.W0 92 /r ; VEX.F2.0F.W1 92 /r
	vpermw	%zmm2,%zmm1,%zmm0
	kmovq	%k1,%k2
