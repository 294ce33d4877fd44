# feature: machine-z13-vx
# summary: Directive question: libgcrypt's own vector check, `.machine "z13+vx"' then VX and VERLLF (gcry_cv_gcc_inline_asm_s390x_vx). clang-14, clang-19 and clang-22 say `z13+vx' is not a processor they know and reset the machine to their default, dropping the vector facility even under -march=z13, so the check says no on every clang; the build's -march=z13 gives the instructions without the directive (its flags answer). No hwcap: a directive, not an extension
# enable: .machine "z13+vx"
# expect: e7 01 f0 00 02 6d e7 bb 00 10 20 33
# since: GNU as 2.40 (no on clang-14, clang-19 and clang-22: the machine name is unknown there)
	vx	%v0,%v1,%v31
	verllf	%v11,%v11,16(%r0)
