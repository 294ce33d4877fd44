# feature: option-arch
# summary: Directive question: does `.option arch, +EXT` enable an extension for the code after it? The kernel's AS_HAS_OPTION_ARCH asks it as `.option arch, +m`; M is in every rv64gc base, where `+m` has no effect to see, so this asks it with Zba, which rv64gc lacks (SH1ADD). No hwcap or hwprobe bit: an assembler feature
# enable: .option arch, +zba
# expect: 33 a5 c5 20
# since: GNU as 2.40, clang-19, clang-22; clang-14 warns that it does not know the option (and exits 0)
	sh1add	a0, a1, a2
