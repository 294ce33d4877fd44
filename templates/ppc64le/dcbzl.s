# feature: dcbzl
# summary: dcbzl, data cache block zero of the native 128-byte line (FFmpeg's HAVE_DCBZL; no hwcap bit in the kernel's uapi headers: the line size is AT_DCACHEBSIZE's)
# enable: .machine power4
# expect: ec 1f 20 7c
# since: POWER4 / PPC970; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffe007fe 7c2007ec
	dcbzl	0, 3
