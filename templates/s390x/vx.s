# feature: vx
# summary: z/Architecture vector facility (z13, arch11): 32 128-bit vector registers and the E7 opcode page; libgcrypt's HAVE_GCC_INLINE_ASM_S390X_VX instructions (VX with %v31, VERLLF). Audit: every E7 instruction
# enable: .machine "z13+vx"
# enable: .machine z13
# enable: .machine arch11
# hwcap: AT_HWCAP bit=11
# expect: e7 01 f0 00 02 6d e7 bb 00 10 20 33
# since: z13 (2015); GNU as 2.40 takes all three spellings; clang-14, clang-19 and clang-22 say `.machine "z13+vx"' is not a processor they know and reset the machine to their default (no vector facility, whatever -march said), and take `.machine z13' and `arch11', or the build's -march=z13 without a directive
# audit: ff0000000000 e70000000000
	vx	%v0,%v1,%v31
	verllf	%v11,%v11,16(%r0)
