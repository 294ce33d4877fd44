# feature: armv8
# summary: FFmpeg's `armv8` check, the PRFM prefetch hint `prfm pldl1strm, [x0]` (PRFM immediate/register/literal, PRFUM). No hwcap bit: every AArch64 CPU has it
# enable: .arch armv8-a
# expect: 01 00 80 f9
# since: Armv8-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22 (also without the directive: it is the base)
# audit: ffc00000 f9800000 ; ffe00c00 f8a00800 ; ff000000 d8000000 ; ffe00c00 f8800000
	prfm	pldl1strm, [x0]
