# feature: arch-level
# summary: Directive question: does `.arch armv8.2-a` raise the level, so that DC CVAP (FEAT_DPB, mandatory from Armv8.2-A) assembles? FFmpeg's as_arch_directive / AS_ARCH_LEVEL. No hwcap bit: a level, not an extension
# enable: .arch armv8.2-a
# expect: 20 7c 0b d5
# since: GNU as 2.40, clang-14, clang-19, clang-22
	dc	cvap, x0
