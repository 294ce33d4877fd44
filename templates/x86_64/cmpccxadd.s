# feature: cmpccxadd
# summary: CMPccXADD atomic compare-and-add (VEX-encoded general-register instructions; 64-bit mode only)
# cpuid: leaf=7 subleaf=1 reg=eax bit=7
# expect: c4 e2 f9 e0 0a
# since: Sierra Forest / Arrow Lake CPUs; assembled here by GNU as 2.40, clang-16, clang-19, clang-22 and nasm 2.16.01
# audit: VEX.128.66.0F38.WIG e0 /r ; VEX.128.66.0F38.WIG e1 /r ; VEX.128.66.0F38.WIG e2 /r ; VEX.128.66.0F38.WIG e3 /r ; VEX.128.66.0F38.WIG e4 /r ; VEX.128.66.0F38.WIG e5 /r ; VEX.128.66.0F38.WIG e6 /r ; VEX.128.66.0F38.WIG e7 /r ; VEX.128.66.0F38.WIG e8 /r ; VEX.128.66.0F38.WIG e9 /r ; VEX.128.66.0F38.WIG ea /r ; VEX.128.66.0F38.WIG eb /r ; VEX.128.66.0F38.WIG ec /r ; VEX.128.66.0F38.WIG ed /r ; VEX.128.66.0F38.WIG ee /r ; VEX.128.66.0F38.WIG ef /r
	cmpoxadd	%rax,%rcx,(%rdx)
