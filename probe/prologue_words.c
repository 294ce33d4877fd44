/* Stack-pointer arithmetic of the fixed-width sets, from the manuals'
 * encodings: AArch64 load/store (pair) with writeback and ADD/SUB
 * (immediate) on sp; RISC-V addi sp and its compressed forms; ARM
 * PUSH/POP (STMDB/LDMIA sp!), single-register push/pop, VPUSH/VPOP and
 * ADD/SUB sp in A32 and Thumb. */
#include "prologue_words.h"

static long sext(uint32_t v, unsigned bits)
{
	return (long)(int32_t)(v << (32 - bits)) >> (32 - bits);
}

static long popcount(uint32_t v)
{
	long n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static uint32_t ror32(uint32_t v, unsigned r)
{
	r &= 31;
	return r ? v >> r | v << (32 - r) : v;
}

static long a64_down(uint32_t w)
{
	unsigned rn = w >> 5 & 31, rd = w & 31;
	if (rn != 31)
		return 0;
	/* LDP/STP with writeback: bits 29:27 101, 25:23 001 (post) or 011 (pre). */
	if ((w >> 27 & 7) == 5 && ((w >> 23 & 7) == 1 || (w >> 23 & 7) == 3)) {
		unsigned opc = w >> 30, simd = w >> 26 & 1;
		long scale = simd ? 4L << opc : opc == 2 ? 8 : 4;
		return -sext(w >> 15 & 0x7f, 7) * scale;
	}
	/* LDR/STR (immediate) with writeback: bits 29:27 111, 25:24 00, 21 0,
	 * 11:10 01 (post) or 11 (pre). */
	if ((w >> 27 & 7) == 7 && !(w >> 24 & 3) && !(w >> 21 & 1) && (w >> 10 & 1))
		return -sext(w >> 12 & 0x1ff, 9);
	/* ADD/SUB (immediate), 64-bit, no flags: 0x91 / 0xd1, shift 0 or 12. */
	if (rd == 31 && ((w >> 24) == 0x91 || (w >> 24) == 0xd1) && !(w >> 23 & 1)) {
		long imm = (long)(w >> 10 & 0xfff) << (w >> 22 & 1 ? 12 : 0);
		return (w >> 24) == 0xd1 ? imm : -imm;
	}
	return 0;
}

static long rv_down(uint32_t w, unsigned len)
{
	if (len == 4)
		return (w & 0xfffff) == 0x10113 ? -sext(w >> 20, 12) : 0;   /* addi sp, sp, imm */
	if ((w & 0xef83) == 0x6101)                                      /* c.addi16sp */
		return -sext((w >> 12 & 1) << 9 | (w >> 6 & 1) << 4 | (w >> 5 & 1) << 6 |
		             (w >> 3 & 3) << 7 | (w >> 2 & 1) << 5, 10);
	if ((w & 0xef83) == 0x0101)                                      /* c.addi sp */
		return -sext((w >> 12 & 1) << 5 | (w >> 2 & 0x1f), 6);
	return 0;
}

/* ThumbExpandImm (ARM ARM A6.3.2). */
static uint32_t thumb_imm(uint32_t imm12)
{
	uint32_t b = imm12 & 0xff;
	if (imm12 >> 10)
		return ror32(0x80 | (imm12 & 0x7f), imm12 >> 7);
	switch (imm12 >> 8 & 3) {
	case 0: return b;
	case 1: return b << 16 | b;
	case 2: return b << 24 | b << 8;
	default: return b * 0x01010101u;
	}
}

static long t16_down(uint32_t h)
{
	if ((h & 0xfe00) == 0xb400)     /* push {..., lr} */
		return 4 * popcount(h & 0x1ff);
	if ((h & 0xfe00) == 0xbc00)     /* pop {..., pc} */
		return -4 * popcount(h & 0x1ff);
	if ((h & 0xff80) == 0xb080)     /* sub sp, #imm7*4 */
		return 4 * (long)(h & 0x7f);
	if ((h & 0xff80) == 0xb000)     /* add sp, #imm7*4 */
		return -4 * (long)(h & 0x7f);
	return 0;
}

static long t32_down(uint32_t w)
{
	uint32_t h1 = w >> 16, h2 = w & 0xffff;
	uint32_t imm12 = (h1 >> 10 & 1) << 11 | (h2 >> 12 & 7) << 8 | (h2 & 0xff);
	int sp_sp = (h2 & 0x8f00) == 0x0d00;    /* Rd = sp (Rn = sp is in h1) */
	if (h1 == 0xe92d)                       /* stmdb sp!, {...} */
		return 4 * popcount(h2);
	if (h1 == 0xe8bd)                       /* ldmia sp!, {...} */
		return -4 * popcount(h2);
	if (h1 == 0xf84d && (h2 & 0x0f00) == 0x0d00)   /* str rt, [sp, #-imm8]! */
		return h2 & 0xff;
	if (h1 == 0xf85d && (h2 & 0x0f00) == 0x0b00)   /* ldr rt, [sp], #imm8 */
		return -(long)(h2 & 0xff);
	if ((h1 & 0xffbf) == 0xed2d && (h2 & 0x0e00) == 0x0a00)   /* vpush */
		return 4 * (long)(h2 & 0xff);
	if ((h1 & 0xffbf) == 0xecbd && (h2 & 0x0e00) == 0x0a00)   /* vpop */
		return -4 * (long)(h2 & 0xff);
	if ((h1 & 0xfbef) == 0xf1ad && sp_sp)   /* sub.w sp, sp, #const */
		return (long)thumb_imm(imm12);
	if ((h1 & 0xfbef) == 0xf10d && sp_sp)   /* add.w sp, sp, #const */
		return -(long)thumb_imm(imm12);
	if ((h1 & 0xfbff) == 0xf2ad && sp_sp)   /* subw sp, sp, #imm12 */
		return imm12;
	if ((h1 & 0xfbff) == 0xf20d && sp_sp)   /* addw sp, sp, #imm12 */
		return -(long)imm12;
	return 0;
}

static long a32_down(uint32_t w)
{
	uint32_t op = w & 0x0fff0000, imm = ror32(w & 0xff, 2 * (w >> 8 & 15));
	if (w >> 28 == 0xf)             /* the unconditional space holds other things */
		return 0;
	if (op == 0x092d0000)           /* push = stmdb sp!, {...} */
		return 4 * popcount(w & 0xffff);
	if (op == 0x08bd0000)           /* pop = ldmia sp!, {...} */
		return -4 * popcount(w & 0xffff);
	if (op == 0x052d0000)           /* str rt, [sp, #-imm12]! */
		return w & 0xfff;
	if (op == 0x049d0000)           /* ldr rt, [sp], #imm12 */
		return -(long)(w & 0xfff);
	if ((w & 0x0fbf0e00) == 0x0d2d0a00)     /* vpush */
		return 4 * (long)(w & 0xff);
	if ((w & 0x0fbf0e00) == 0x0cbd0a00)     /* vpop */
		return -4 * (long)(w & 0xff);
	if ((w & 0x0ffff000) == 0x024dd000)     /* sub sp, sp, #const */
		return (long)imm;
	if ((w & 0x0ffff000) == 0x028dd000)     /* add sp, sp, #const */
		return -(long)imm;
	return 0;
}

long sp_down(enum isa isa, uint32_t word, unsigned len)
{
	switch (isa) {
	case ISA_A64: return a64_down(word);
	case ISA_RV: return rv_down(word, len);
	case ISA_T32: return len == 2 ? t16_down(word) : t32_down(word);
	case ISA_A32: return a32_down(word);
	case ISA_DATA: break;
	}
	return 0;
}

struct depth { long now, max; size_t decoded; };

static void follow(void *ctx, uint64_t off, const struct isa_insn *in, unsigned step)
{
	struct depth *d = ctx;
	(void)off;
	(void)step;
	if (!in->ok)
		return;
	d->decoded++;
	d->now += sp_down(in->isa, in->word, in->len);
	if (d->now > d->max)
		d->max = d->now;
}

long prologue_frame_words(const struct isa_span *s, size_t n, const uint8_t *data,
                          uint64_t from, uint64_t to)
{
	struct depth d = { 0, 0, 0 };
	isa_walk(s, n, data, from, to, follow, &d);
	return d.decoded ? d.max : -1;
}
