/* SPDX-License-Identifier: MIT */
/* 32-bit ARM (A32/T32): templates/arm, the Thumb/architecture/NEON build
 * macros, `.arch`/`.fpu`/`.arch_extension` directives that nothing can
 * undo (so snippets that carry one run alone).  The A32/T32 audit decoder
 * (by mapping symbols), the AT_HWCAP/AT_HWCAP2 reader, the prologue
 * reader and the `attribute:' evidence (.ARM.attributes) plug in here. */
#include "arch.h"
#include "arm.h"
#include "armattr.h"
#include "hwcap.h"
#include "words.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const macros[] = {
	"__thumb__", "__thumb2__", "__ARM_ARCH", "__ARM_NEON", "__ARM_FP",
	"__ARM_FEATURE_CRYPTO", "__ARM_FEATURE_CRC32", "__ARM_FEATURE_IDIV", "__ARM_PCS_VFP",
	"__ARM_BIG_ENDIAN", NULL,
};

/* iOS's armv7 is Mach-O */
static const struct arch_fact facts[] = { ARCH_FACT_PIC, ARCH_FACT_APPLE, {0} };

static uint32_t le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

/* A32: one little-endian word (big-endian objects are read in BE8 order,
 * code_unit).  Thumb: a halfword, or two when the first
 * one's top five bits are 0b11101, 0b11110 or 0b11111 (Arm ARM A6.1). */
static unsigned decode(const uint8_t *p, size_t n, int mode, struct arch_insn *in)
{
	if (mode != ARCH_MODE_THUMB) {
		if (n < 4)
			return 0;
		in->word = le16(p) | le16(p + 2) << 16;
		return in->len = 4;
	}
	if (n < 2)
		return 0;
	in->word = le16(p);
	if (in->word >> 11 < 0x1d)
		return in->len = 2;
	if (n < 4)
		return 0;
	in->word = in->word << 16 | le16(p + 2);
	return in->len = 4;
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

/* ThumbExpandImm (Arm ARM A6.3.2). */
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
	int to_sp = (h2 & 0x8f00) == 0x0d00;    /* Rd = sp (Rn = sp is in h1) */
	if (h1 == 0xe92d)                       /* push.w = stmdb sp!, {...} */
		return 4 * popcount(h2);
	if (h1 == 0xe8bd)                       /* pop.w = ldmia sp!, {...} */
		return -4 * popcount(h2);
	if (h1 == 0xf84d && (h2 & 0x0f00) == 0x0d00)   /* str rt, [sp, #-imm8]! */
		return h2 & 0xff;
	if (h1 == 0xf85d && (h2 & 0x0f00) == 0x0b00)   /* ldr rt, [sp], #imm8 */
		return -(long)(h2 & 0xff);
	if ((h1 & 0xffbf) == 0xed2d && (h2 & 0x0e00) == 0x0a00)   /* vpush */
		return 4 * (long)(h2 & 0xff);
	if ((h1 & 0xffbf) == 0xecbd && (h2 & 0x0e00) == 0x0a00)   /* vpop */
		return -4 * (long)(h2 & 0xff);
	if ((h1 & 0xfbef) == 0xf1ad && to_sp)   /* sub.w sp, sp, #const */
		return (long)thumb_imm(imm12);
	if ((h1 & 0xfbef) == 0xf10d && to_sp)   /* add.w sp, sp, #const */
		return -(long)thumb_imm(imm12);
	if ((h1 & 0xfbff) == 0xf2ad && to_sp)   /* subw sp, sp, #imm12 */
		return imm12;
	if ((h1 & 0xfbff) == 0xf20d && to_sp)   /* addw sp, sp, #imm12 */
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

/* Bytes one instruction moves sp down: PUSH/POP, single-register
 * push/pop, VPUSH/VPOP, ADD/SUB sp in A32 and Thumb. */
static long sp_down(uint64_t w, unsigned len, int mode)
{
	if (mode != ARCH_MODE_THUMB)
		return a32_down(w);
	return len == 2 ? t16_down(w) : t32_down(w);
}

/* The `attribute:' evidence: .ARM.attributes (armattr.c). */
static int evidence_attribute(const struct obj *o, unsigned tag, uint64_t value, struct buf *why)
{
	char err[160];
	uint64_t got = 0;
	int r = arm_attribute(o, tag, &got, err, sizeof err);
	if (r < 0)
		buf_printf(why, "exited 0 but its object's %s", err);
	else if (!r)
		buf_printf(why, "assembled, but its object records no attribute %u (expected %llu)", tag,
		           (unsigned long long)value);
	else if (got != value)
		buf_printf(why, "assembled, but its object records attribute %u = %llu, not %llu", tag,
		           (unsigned long long)got, (unsigned long long)value);
	return r < 0 ? -1 : r && got == value;
}

static int set_isa(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	struct arm_feature *d = data;
	(void)f;
	(void)key;
	if (!strcmp(v, "thumb") || !strcmp(v, "arm")) {
		d->isa = xstrdup(v);
		return 0;
	}
	snprintf(why, whylen, "bad isa `%s' (want one `thumb' or `arm')", v);
	return -1;
}

static int set_thumb(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	struct arm_feature *d = data;
	(void)f;
	return words_parse_audit(key, v, &d->thumb, &d->nthumb, why, whylen);
}

/* `attribute: Tag_NAME=N': the ULEB128-valued File attributes of the ABI's
 * Build Attributes (tag numbers from its table) a directive may set. */
static int set_attribute(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	static const struct { const char *name; unsigned tag; } tags[] = {
		{"Tag_CPU_arch", 6}, {"Tag_CPU_arch_profile", 7}, {"Tag_ARM_ISA_use", 8},
		{"Tag_THUMB_ISA_use", 9}, {"Tag_FP_arch", 10}, {"Tag_Advanced_SIMD_arch", 12},
	};
	const char *eq = strchr(v, '=');
	size_t len = eq ? (size_t)(eq - v) : 0, k = 0;
	unsigned long long n;
	(void)data;
	(void)key;
	while (eq && k < sizeof tags / sizeof *tags && (strlen(tags[k].name) != len || strncmp(v, tags[k].name, len)))
		k++;
	if (!eq || k == sizeof tags / sizeof *tags || cat_number(eq + 1, UINT64_MAX, &n)) {
		snprintf(why, whylen, "bad attribute `%s' (want `Tag_NAME=N', NAME one of CPU_arch, CPU_arch_profile, "
		         "ARM_ISA_use, THUMB_ISA_use, FP_arch, Advanced_SIMD_arch)", v);
		return -1;
	}
	f->attr_tag = tags[k].tag;
	f->attr_value = n;
	return 0;
}

static void keys_free(void *data)
{
	struct arm_feature *d = data;
	free(d->isa);
	free(d->thumb);
}

static const struct cat_key arm_keys[] = {
	{"isa", 0, set_isa}, {"audit-thumb", 1, set_thumb}, {"attribute", 0, set_attribute}, {NULL, 0, NULL},
};
static const struct cat_keys keys = { arm_keys, sizeof(struct arm_feature), NULL, keys_free, NULL };

const struct arm_feature *arm_of(const struct feature *f)
{
	static const struct arm_feature none;
	const struct arm_feature *d = arch_keyed(f, &keys);
	return d ? d : &none;
}

/* Thumb code is matched against `audit-thumb:', A32 against `audit:'. */
static int audit_match(const struct feature *f, const void *pats, const struct arch_insn *in,
                       const uint8_t *bytes)
{
	if (in->mode != ARCH_MODE_THUMB)
		return words_match(f, pats, in, bytes);
	return words_any(arm_of(f)->thumb, arm_of(f)->nthumb, in);
}

/* ELF for the Arm Architecture: $a A32, $t T32, $d data; bit 0 of a
 * function's address set for Thumb code. */
static char mapping(const char *name)
{
	return words_mapping(name, "atd", "");
}

static int func_mode(uint64_t *value)
{
	int thumb = *value & 1;
	*value &= ~(uint64_t)1;
	return thumb;
}

/* Big-endian code without EF_ARM_BE8 (every relocatable object, and BE32
 * images) stores each A32 word and each Thumb halfword big-endian; `ld
 * --be8' makes them little-endian, as the CPU fetches them, and leaves
 * data alone, by the mapping symbols: the reader does the same.  Code
 * before the first mapping symbol is taken as A32 (the ABI requires them). */
#define EF_ARM_BE8 0x00800000u
static unsigned code_unit(const struct obj *o, uint32_t e_flags, char m)
{
	if (!o->big_endian || (e_flags & EF_ARM_BE8) || m == 'd')
		return 0;
	return m == 't' ? 2 : 4;
}

static const struct obj_rules rules = { mapping, func_mode, code_unit };

const struct arch arch_arm = {
	.name = "arm", .bits = 32,
#if defined(__arm__)
	.is_host = 1,
#endif
	/* big-endian code is read in BE8 order (code_unit): little-endian words */
	.elf_machine = 40, .orders = ARCH_ORDER_LE | ARCH_ORDER_BE, .coff_machine = 0x1c4, .macho_cputype = 12,
	.macros = macros, .facts = facts, .scope = ARCH_SCOPE_ALONE,
	.min_insn = 2, WORDS_HOOKS_MATCH(decode, sp_down, audit_match), .evidence_attribute = evidence_attribute,
	.obj_rules = &rules, .keys = &keys,
};
