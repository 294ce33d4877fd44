/* SPDX-License-Identifier: MIT */
/* x86 instruction-length decoder (32- and 64-bit mode): enough structure
 * to tell which instruction starts where and what it is (escape map,
 * opcode, mandatory prefix, VEX/EVEX fields, ModRM), so that bytes inside
 * displacements and immediates are never taken for opcodes. */
#ifndef ASMCAP_X86DEC_H
#define ASMCAP_X86DEC_H

#include <stddef.h>
#include <stdint.h>

enum x86_enc { X86_LEGACY, X86_VEX, X86_EVEX, X86_XOP };
enum x86_map { X86_MAP_1BYTE, X86_MAP_0F, X86_MAP_0F38, X86_MAP_0F3A };

struct x86_insn {
	unsigned len;           /* total bytes, 1..15 */
	enum x86_enc enc;
	unsigned map;           /* enum x86_map; VEX/EVEX maps 4-7 and XOP maps 8-10 as numbers */
	uint8_t opcode;
	uint8_t pp;             /* mandatory prefix: 0 none, 0x66, 0xf2, 0xf3 (VEX/EVEX: from pp) */
	uint8_t has66;          /* legacy: a 66 prefix is present */
	uint8_t rex;            /* legacy REX byte (0x40-0x4f) or 0 */
	uint8_t has_rex2;       /* 64-bit: an APX REX2 prefix (d5) is present */
	uint8_t rex2;           /* its payload: M0 R4 X4 B4 W R3 X3 B3 */
	int w;                  /* REX.W / REX2.W / VEX.W / EVEX.W */
	int l;                  /* VEX.L / EVEX.L'L: 0 128, 1 256, 2 512; -1 legacy */
	int has_modrm;
	uint8_t modrm;
	unsigned after_opcode;  /* offset of the byte after the opcode */
};

/* Decode the instruction at p[0..n).  bits is 32 or 64.  Returns its
 * length (also in->len), or 0 when the bytes are not a complete valid
 * instruction (truncated, undefined opcode, longer than 15 bytes). */
unsigned x86_decode(const uint8_t *p, size_t n, int bits, struct x86_insn *in);

#endif
