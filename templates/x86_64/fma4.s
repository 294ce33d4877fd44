# feature: fma4
# summary: AMD FMA4 four-operand fused multiply-add (VEX 0F3A with an is4 register byte; Bulldozer to Zen 1), FFmpeg's fma4 check
# cpuid: leaf=0x80000001 subleaf=0 reg=ecx bit=16
# xcr0: 0x6
# expect: c4 e3 f5 68 c3 20
# expect: c4 e3 75 68 c2 30
# since: AMD Bulldozer CPUs; assembled here by GNU as 2.40, clang-13..22 and nasm 2.16.01 (the two lines: with registers only, VEX.W picks which source sits in ModRM and which in is4; both are valid)
# audit: VEX.66.0F3A.WIG 5c /r ib ; VEX.66.0F3A.WIG 5d /r ib ; VEX.66.0F3A.WIG 5e /r ib ; VEX.66.0F3A.WIG 5f /r ib ; VEX.66.0F3A.WIG 68 /r ib ; VEX.66.0F3A.WIG 69 /r ib ; VEX.66.0F3A.WIG 6a /r ib ; VEX.66.0F3A.WIG 6b /r ib ; VEX.66.0F3A.WIG 6c /r ib ; VEX.66.0F3A.WIG 6d /r ib ; VEX.66.0F3A.WIG 6e /r ib ; VEX.66.0F3A.WIG 6f /r ib ; VEX.66.0F3A.WIG 78 /r ib ; VEX.66.0F3A.WIG 79 /r ib ; VEX.66.0F3A.WIG 7a /r ib ; VEX.66.0F3A.WIG 7b /r ib ; VEX.66.0F3A.WIG 7c /r ib ; VEX.66.0F3A.WIG 7d /r ib ; VEX.66.0F3A.WIG 7e /r ib ; VEX.66.0F3A.WIG 7f /r ib
	vfmaddps	%ymm3,%ymm2,%ymm1,%ymm0
