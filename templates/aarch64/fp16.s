# feature: fp16
# summary: Half-precision floating-point arithmetic, scalar (FEAT_FP16; the AdvSIMD half forms are HWCAP_ASIMDHP)
# enable: .arch_extension fp16
# enable: .arch armv8.2-a+fp16
# enable: .arch armv9-a+crc
# hwcap: AT_HWCAP bit=9
# expect: 20 28 e2 1e
# since: Armv8.2-A (optional); assembled here by GNU as 2.40, clang-19, clang-22
# audit: ffe00c00 1ee00800 ; ffc00000 1fc00000 ; fffe7c00 1ee04000 ; fffc7c00 1ee44000 ; ffe0fc07 1ee02000 ; ffe01fe0 1ee01000 ; 7fe0fc00 1ee00000 ; 9f60c400 0e400400
	fadd	h0, h1, h2
