# feature: avx512vpopcntdq
# summary: AVX-512 VPOPCNTDQ dword/qword population count VPOPCNTD/Q (Ice Lake)
# requires: avx512f
# cpuid: leaf=7 subleaf=0 reg=ecx bit=14
# xcr0: 0xe6
# expect: 62 f2 fd 48 55 c1
# since: Knights Mill / Ice Lake CPUs; assembled here by GNU as 2.40, clang-13..22 and nasm 2.16.01
# audit: EVEX.66.0F38.W0 55 /r ; EVEX.66.0F38.W1 55 /r
	vpopcntq	%zmm1,%zmm0
