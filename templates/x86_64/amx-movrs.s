# feature: amx-movrs
# summary: AMX-MOVRS read-shared tile loads TILELOADDRS/TILELOADDRST1 (Diamond Rapids)
# requires: amx-tile
# cpuid: leaf=30 subleaf=1 reg=eax bit=8
# xcr0: 0x60000
# expect: c4 e2 7b 4a 04 08
# since: Diamond Rapids CPUs; assembled here by clang-22 only (not GNU as 2.40, clang-19)
# audit: VEX.128.F2.0F38.W0 4a /r ; VEX.128.66.0F38.W0 4a /r
# nasm: none
	tileloaddrs	(%rax,%rcx,1),%tmm0
