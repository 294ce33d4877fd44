# feature: amx-fp8
# summary: AMX-FP8 tile dot products of FP8 (E5M2/E4M3) pairs TDP[BF8,BHF8,HBF8,HF8]PS, VEX map 5 (Diamond Rapids)
# requires: amx-tile
# cpuid: leaf=30 subleaf=1 reg=eax bit=4
# xcr0: 0x60000
# expect: c4 e5 68 fd c1 c4 e5 69 fd c1
# since: binutils 2.44, llvm 20; assembled here by clang-22 only (not GNU as 2.40, clang-19)
# audit: VEX.128.NP.MAP5.W0 fd /r ; VEX.128.F2.MAP5.W0 fd /r ; VEX.128.F3.MAP5.W0 fd /r ; VEX.128.66.MAP5.W0 fd /r
# nasm: none
	tdpbf8ps	%tmm2,%tmm1,%tmm0
	tdphf8ps	%tmm2,%tmm1,%tmm0
