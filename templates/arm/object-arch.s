# feature: object-arch
# summary: Directive question: does `.object_arch armv4` set the architecture the object records (Tag_CPU_arch 1, v4, in .ARM.attributes) while the code stays the build's? FFmpeg's as_object_arch; checked by the attribute, as clang takes the directive and records v7. No hwcap bit: an assembler feature
# enable: .object_arch armv4
# attribute: Tag_CPU_arch=1
# isa: arm
# expect: 00 00 80 e0
# since: GNU as 2.40; clang (14, 19, 22) accepts it and ignores it
	.syntax unified
	.arm
	add	r0, r0, r0
