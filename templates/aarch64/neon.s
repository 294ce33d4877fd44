# feature: neon
# summary: Advanced SIMD (FEAT_AdvSIMD; in every Armv8-A): FFmpeg's baseline check `ext v0.8b, v0.8b, v1.8b, #1`. Audit: EXT, three-same integer/FP, ZIP/UZP/TRN, LD1-4/ST1-4 multiple structures
# enable: .arch_extension simd
# hwcap: AT_HWCAP bit=1
# expect: 00 08 01 2e
# since: Armv8-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22 (also without the directive: it is in the armv8-a base)
# audit: bfe08400 2e000000 ; 9f200400 0e200400 ; bf208c00 0e000800 ; bfbf0000 0c000000 ; bfa00000 0c800000
	ext	v0.8b, v0.8b, v1.8b, #1
