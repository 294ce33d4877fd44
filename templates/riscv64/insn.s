# feature: insn
# summary: Directive question: `.insn r OPCODE, FUNCT3, FUNCT7, RD, RS1, RS2` writes the instruction its fields give; the kernel's AS_HAS_INSN line, `.insn r 51, 0, 0, t0, t0, zero` (ADD t0, t0, zero). No hwcap or hwprobe bit: an assembler feature
# expect: b3 82 02 00
# since: GNU as 2.40, clang-14, clang-19, clang-22; all keep the 32-bit form, although clang writes the mnemonic `add t0, t0, zero` as the compressed `c.mv t0, t0`
	.insn	r 51, 0, 0, t0, t0, zero
