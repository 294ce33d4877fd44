# feature: amx-tile
# summary: AMX tile architecture: LDTILECFG/STTILECFG, TILELOADD(T1)/TILESTORED, TILEZERO, TILERELEASE (Sapphire Rapids; Linux also wants arch_prctl(ARCH_REQ_XCOMP_PERM) before a process may use tile data)
# cpuid: leaf=7 subleaf=0 reg=edx bit=24
# xcr0: 0x60000
# expect: c4 e2 7b 49 c0 c4 e2 78 49 c0
# since: Sapphire Rapids CPUs; assembled here by GNU as 2.40, clang-13..22 and nasm 2.16.01
# audit: VEX.128.NP.0F38.W0 49 /r ; VEX.128.66.0F38.W0 49 /r ; VEX.128.F2.0F38.W0 49 /r ; VEX.128.F2.0F38.W0 4b /r ; VEX.128.66.0F38.W0 4b /r ; VEX.128.F3.0F38.W0 4b /r
	tilezero	%tmm0
	tilerelease
