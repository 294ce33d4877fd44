# feature: sme-i16i64
# summary: SME 64-bit integer outer products and tile adds: ADDHA/ADDVA .d, SMOPA/SMOPS/UMOPA/UMOPS/SUMOPA/USMOPA into .d tiles (FEAT_SME_I16I64; FFmpeg's sme_i16i64 check)
# requires: sme
# enable: .arch_extension sme-i16i64
# enable: .arch_extension sme-i64
# hwcap2: AT_HWCAP2 bit=24
# expect: 00 20 d0 c0
# since: Armv9.2-A (optional); assembled here by clang-19, clang-22 as `sme-i16i64`, by GNU as 2.40 and clang-14 as `sme-i64` (the older name)
# audit: fffe0018 c0d00000 ; fec00008 a0c00000
	addha	za0.d, p0/m, p1/m, z0.d
