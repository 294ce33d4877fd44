# feature: msa
# summary: message-security assist (z990 on): KM, KMC, KIMD, KLMD, KMAC, the cipher and hash instructions OpenSSL's and libgcrypt's s390x code use (libgcrypt's HAVE_GCC_INLINE_ASM_S390X check writes KM and KMA as .insn). Audit: those five
# enable: .machine z10
# hwcap: AT_HWCAP bit=3
# expect: b9 2e 00 24 b9 3e 00 24 b9 3f 00 24
# since: z990 (2003); GNU as 2.40, clang-19, clang-22, also without the directive (in every base they start from)
# audit: ffff0000 b92e0000 ; ffff0000 b92f0000 ; ffff0000 b93e0000 ; ffff0000 b93f0000 ; ffff0000 b91e0000
	km	%r2,%r4
	kimd	%r2,%r4
	klmd	%r2,%r4
