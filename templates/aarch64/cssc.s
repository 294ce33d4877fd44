# feature: cssc
# summary: Common short sequence compression ABS/CNT/CTZ/SMAX/SMIN/UMAX/UMIN (FEAT_CSSC)
# enable: .arch_extension cssc
# hwcap2: AT_HWCAP2 bit=34
# expect: 20 20 c0 da
# since: Armv8.9-A; assembled here by GNU as 2.40, clang-19, clang-22
# audit: 7ffff800 5ac01800 ; 7ffffc00 5ac02000 ; 7fe0f000 1ac06000 ; 7ff00000 11c00000
	abs	x0, x1
