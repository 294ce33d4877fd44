# feature: amx-tf32
# summary: AMX-TF32 tile matrix multiply of FP32 as TF32 TMMULTF32PS (Diamond Rapids)
# requires: amx-tile
# cpuid: leaf=30 subleaf=1 reg=eax bit=6
# xcr0: 0x60000
# expect: c4 e2 69 48 c1
# since: binutils 2.44, llvm 20; assembled here by clang-22 only (not GNU as 2.40, clang-19)
# audit: VEX.128.66.0F38.W0 48 /r
# nasm: none
	tmmultf32ps	%tmm2,%tmm1,%tmm0
