/* SPDX-License-Identifier: MIT */
/* x86 instruction-length decoder, from the opcode maps of the Intel SDM
 * vol. 2 (appendix A) and the AMD APM vol. 3.  It classifies, it does not
 * disassemble: what matters is where each instruction ends. */
#include <string.h>

#include "x86dec.h"

/* One-byte map, per opcode:
 *   .  no operand bytes       m  ModRM                 b  imm8
 *   z  imm16/32 (operand size) M  ModRM+imm8           Z  ModRM+imm16/32
 *   w  imm16                  v  imm16/32/64 (mov r,imm) a  moffs (address size)
 *   j  rel16/32 branch        f  far pointer           g  group 3 (F6/F7)
 *   E  enter (imm16+imm8)     V  VEX/EVEX or ModRM (C4 C5 62)
 *   p  prefix                 e  0F escape */
static const char map1[256 + 1] =
	"mmmmbz..mmmmbz.e" "mmmmbz..mmmmbz.." "mmmmbzp.mmmmbzp." "mmmmbzp.mmmmbzp."
	"................" "................" "..VmppppzZbM...." "bbbbbbbbbbbbbbbb"
	"MZMMmmmmmmmmmmmm" "..........f....." "aaaa....bz......" "bbbbbbbbvvvvvvvv"
	"MMw.VVMZE.w..b.." "mmmmbb..mmmmmmmm" "bbbbbbbbjjfb...." "p.pp..gg......mm";

/* 0F map: as above, plus x undefined, 3 3DNow! (ModRM + suffix byte),
 * e the 0F38/0F3A escapes. */
static const char map0f[256 + 1] =
	"mmmmx.....x.xm.3" "mmmmmmmmmmmmmmmm" "mmmmmxmxmmmmmmmm" "......x.exexxxxx"
	"mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "MMMMmmm.mmxxmmmm"
	"jjjjjjjjjjjjjjjj" "mmmmmmmmmmmmmmmm" "...mMmxx...mMmmm" "mmmmmmmmmmMmmmmm"
	"mmMmMMMm........" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm";

/* One-byte opcodes that 64-bit mode removed (C4 C5 62 became VEX/EVEX). */
static int gone_in_64(uint8_t op)
{
	static const uint8_t gone[] = { 0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x27, 0x2f,
	                                0x37, 0x3f, 0x60, 0x61, 0x82, 0x9a, 0xce, 0xd4, 0xd5,
	                                0xd6, 0xea };
	return memchr(gone, op, sizeof gone) != NULL;
}

static int is_legacy_prefix(uint8_t b)
{
	return b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x36 || b == 0x3e ||
	       b == 0x26 || b == 0x64 || b == 0x65 || b == 0x66 || b == 0x67;
}

/* Bytes taken by ModRM, SIB and displacement at p[0..n), or 0 if truncated. */
static unsigned modrm_len(const uint8_t *p, size_t n, int addr16)
{
	unsigned mod, rm, len = 1;

	if (n < 1)
		return 0;
	mod = p[0] >> 6;
	rm = p[0] & 7;
	if (mod == 3)
		return 1;
	if (addr16) {
		len += mod == 1 ? 1 : mod == 2 || (mod == 0 && rm == 6) ? 2 : 0;
	} else {
		if (rm == 4) {
			if (n < 2)
				return 0;
			len++;
			if (mod == 0 && (p[1] & 7) == 5)
				len += 4;
		}
		len += mod == 1 ? 1 : mod == 2 || (mod == 0 && rm == 5) ? 4 : 0;
	}
	return len <= n ? len : 0;
}

/* EVEX map 4 (APX: the legacy integer instructions promoted to EVEX)
 * keeps the immediates of the 1-byte map: shifts, group 1, IMUL, SHLD/SHRD,
 * group 3's TEST (CTEST); pp 66 without W makes iz 16 bits, as a 66 prefix does. */
static unsigned map4_imm(const struct x86_insn *in, const uint8_t *modrm, size_t n)
{
	unsigned iz = in->pp == 0x66 && !in->w ? 2 : 4;
	switch (in->opcode) {
	case 0x24: case 0x2c: case 0x6b: case 0x80: case 0x83: case 0xc0: case 0xc1:
		return 1;
	case 0x69: case 0x81:
		return iz;
	case 0xf6: case 0xf7:
		if (!n || (modrm[0] >> 3 & 7) >= 2)
			return 0;
		return in->opcode == 0xf6 ? 1 : iz;
	}
	return 0;
}

/* Immediate size of a VEX/EVEX instruction whose ModRM is at modrm[0..n):
 * 0F3A always has imm8; in 0F the shift groups, cmp and pinsrw/pextrw/shufps
 * do; map 7 (USER_MSR, MSR_IMM) has the MSR index as imm32. */
static unsigned vex_imm(const struct x86_insn *in, const uint8_t *modrm, size_t n)
{
	uint8_t op = in->opcode;
	if (in->enc == X86_XOP)     /* maps 8: imm8, 9: none, 0a: imm32 */
		return in->map == 8 ? 1 : in->map == 10 ? 4 : 0;
	if (in->map == X86_MAP_0F3A)
		return 1;
	if (in->map == X86_MAP_0F)
		return (op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6);
	if (in->map == 4 && in->enc == X86_EVEX)
		return map4_imm(in, modrm, n);
	return in->map == 7 ? 4 : 0;
}

static const uint8_t pp_prefix[4] = { 0, 0x66, 0xf3, 0xf2 };

/* VEX (c4/c5), XOP (8f) or EVEX (62) at p[0]; fills the fields, returns the bytes up
 * to and including the opcode, or 0 if invalid/truncated. */
static unsigned vex_header(const uint8_t *p, size_t n, struct x86_insn *in)
{
	if (p[0] == 0xc5) {
		if (n < 3)
			return 0;
		in->enc = X86_VEX;
		in->map = X86_MAP_0F;
		in->w = 0;
		in->l = p[1] >> 2 & 1;
		in->pp = pp_prefix[p[1] & 3];
		in->opcode = p[2];
		return 3;
	}
	if (p[0] == 0xc4 || p[0] == 0x8f) {
		/* VEX maps 5 (AMX-FP8) and 7 (USER_MSR, MSR_IMM) besides 0F/0F38/0F3A */
		unsigned map = n < 4 ? 0 : p[1] & 31;
		if (p[0] == 0xc4 ? map < 1 || map == 4 || map == 6 || map > 7 : map < 8 || map > 10)
			return 0;
		in->enc = p[0] == 0xc4 ? X86_VEX : X86_XOP;
		in->map = map;
		in->w = p[2] >> 7;
		in->l = p[2] >> 2 & 1;
		in->pp = pp_prefix[p[2] & 3];
		in->opcode = p[3];
		return 4;
	}
	/* 62: EVEX P0 (R X B R' B4 mmm), P1 (W vvvv X4 pp), P2 (z L'L b V' aaa);
	 * APX gave P0 bit 3 and P1 bit 2 to the extended GPRs (B4, X4), and
	 * map 4 to the promoted integer instructions (there P2 holds ND and NF);
	 * maps 5, 6 are AVX512-FP16 and AVX10.2, map 7 USER_MSR's EVEX forms. */
	if (n < 5)
		return 0;
	in->map = p[1] & 7;
	if (in->map == 0)
		return 0;
	in->enc = X86_EVEX;
	in->w = p[2] >> 7;
	in->pp = pp_prefix[p[2] & 3];
	in->l = p[3] >> 5 & 3;
	in->opcode = p[4];
	return 5;
}

/* The opcode after a REX2 prefix (p[*i]): REX2.M0 picks the 1-byte or the
 * 0F map, there is no escape byte, and neither VEX/EVEX, another prefix
 * nor an opcode 64-bit mode removed may follow.  Its map1/map0f kind, or 0
 * when invalid. */
static char rex2_opcode(const uint8_t *p, unsigned *i, struct x86_insn *in)
{
	uint8_t op = p[(*i)++];
	char kind;
	in->opcode = op;
	in->map = in->rex2 >> 7 ? X86_MAP_0F : X86_MAP_1BYTE;
	kind = (in->map == X86_MAP_0F ? map0f : map1)[op];
	if (kind == 'e' || kind == 'V' || kind == 'p' || kind == 'x')
		return 0;
	if (in->map == X86_MAP_1BYTE && (gone_in_64(op) || (op & 0xf0) == 0x40))
		return 0;
	return kind;
}

unsigned x86_decode(const uint8_t *p, size_t n, int bits, struct x86_insn *in)
{
	unsigned i = 0, imm = 0, opsize16 = 0, asize = 0, addr16, m;
	uint8_t rep = 0;
	char kind;

	memset(in, 0, sizeof *in);
	in->l = -1;
	if (n > 15)
		n = 15;
	/* Legacy prefixes, then (64-bit) REX, which counts only right before the opcode. */
	for (; i < n; i++) {
		if (is_legacy_prefix(p[i])) {
			in->rex = 0;
			if (p[i] == 0x66)
				in->has66 = 1;
			else if (p[i] == 0x67)
				asize = 1;
			else if (p[i] == 0xf2 || p[i] == 0xf3)
				rep = p[i];
		} else if (bits == 64 && (p[i] & 0xf0) == 0x40) {
			in->rex = p[i];
		} else if (bits == 64 && p[i] == 0xd5) {
			/* APX REX2: d5 and its payload, right before the opcode; a
			 * REX before it is #UD */
			if (in->rex || i + 1 >= n)
				return 0;
			in->has_rex2 = 1;
			in->rex2 = p[i + 1];
			i += 2;
			break;
		} else {
			break;
		}
	}
	if (i >= n)
		return 0;
	addr16 = asize && bits == 32;
	in->w = (in->has_rex2 ? in->rex2 : in->rex) >> 3 & 1;
	opsize16 = in->has66 && !in->w;
	in->pp = rep ? rep : in->has66 ? 0x66 : 0;
	kind = map1[p[i]];
	if (in->has_rex2) {
		kind = rex2_opcode(p, &i, in);
		if (!kind)
			return 0;
		goto legacy;
	}
	/* AMD XOP: 8f whose ModRM-position byte has a reg field (map) of 8..1f;
	 * pop (8f /0) cannot have one. */
	if (p[i] == 0x8f && i + 1 < n && (p[i + 1] & 0x18))
		kind = 'V';
	if (kind == 'V' && (bits == 64 || p[i] == 0x8f || (i + 1 < n && p[i + 1] >> 6 == 3))) {
		unsigned h = vex_header(p + i, n - i, in);
		if (!h)
			return 0;
		i += h;
		in->after_opcode = i;
		/* Every VEX/EVEX form has ModRM but vzeroupper/vzeroall. */
		in->has_modrm = !(in->enc == X86_VEX && in->map == X86_MAP_0F && in->opcode == 0x77);
		imm = vex_imm(in, p + i, n - i);
		goto operands;
	}
	in->opcode = p[i++];
	if (bits == 64 && gone_in_64(in->opcode))
		return 0;
	if (kind == 'e') {
		if (i >= n)
			return 0;
		in->opcode = p[i++];
		in->map = X86_MAP_0F;
		kind = map0f[in->opcode];
		if (kind == 'e') {
			if (i >= n)
				return 0;
			in->map = in->opcode == 0x38 ? X86_MAP_0F38 : X86_MAP_0F3A;
			in->opcode = p[i++];
			kind = in->map == X86_MAP_0F3A ? 'M' : 'm';
		}
	}
legacy:
	in->after_opcode = i;
	switch (kind) {
	case 'x':
		return 0;
	case 'm': case 'V':
		in->has_modrm = 1;
		break;
	case 'M': case '3':
		in->has_modrm = 1;
		imm = 1;
		break;
	case 'Z':
		in->has_modrm = 1;
		imm = opsize16 ? 2 : 4;
		break;
	case 'g':
		in->has_modrm = 1;
		if (i < n && (p[i] >> 3 & 7) < 2)
			imm = in->opcode == 0xf6 ? 1 : opsize16 ? 2 : 4;
		break;
	case 'b':
		imm = 1;
		break;
	case 'w':
		imm = 2;
		break;
	case 'E':
		imm = 3;
		break;
	case 'z':
		imm = opsize16 ? 2 : 4;
		break;
	case 'v':
		imm = in->w ? 8 : opsize16 ? 2 : 4;
		break;
	case 'j':   /* 64-bit mode: near branches take rel32 whatever 66 says (Intel) */
		imm = bits == 64 || !in->has66 ? 4 : 2;
		break;
	case 'f':
		imm = (opsize16 ? 2 : 4) + 2;
		break;
	case 'a':
		imm = bits == 64 ? (asize ? 4 : 8) : asize ? 2 : 4;
		break;
	}
operands:
	if (in->has_modrm) {
		if (i >= n)
			return 0;
		in->modrm = p[i];
		m = modrm_len(p + i, n - i, addr16);
		if (!m)
			return 0;
		i += m;
	}
	if (imm > n - i)
		return 0;
	in->len = i + imm;
	return in->len;
}
