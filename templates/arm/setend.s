# feature: setend
# summary: SETEND BE/LE, the data-endianness switch (FFmpeg's setend check; deprecated from Armv8). No hwcap bit: every Armv6/Armv7 CPU has it
# enable: .arch armv6
# isa: arm
# expect: 00 02 01 f1
# since: Armv6; assembled here by GNU as 2.40, clang-14, clang-19, clang-22 (in the armv7-a base too)
# audit: fffffdff f1010000
# audit-thumb: fff7 b650
	.syntax unified
	.arm
	setend	be
