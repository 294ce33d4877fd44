/* SPDX-License-Identifier: MIT */
/* x86_64 and i386: the catalog folders templates/x86_64 and
 * templates/i386, the __CET__ build macro, audit patterns in the Intel
 * SDM's opcode notation over the length decoder (x86dec.c), CPUID+XGETBV
 * for cpu, and the push/sub prologue for frame. */
#include "arch.h"
#include "x86dec.h"
#include "x86keys.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- audit: one alternative of an `audit:` pattern ("0F 38 F6 /r";
 * "VEX.256.66.0F38.W1 45 /r"; see templates/README.md) ---- */

struct pat {
	enum x86_enc enc;
	unsigned map;
	uint8_t opcode, prefix, ntail, tail[4];
	int any_op;               /* `*`: every opcode of the map, any prefix */
	int rex_ok, rex_w, rex2;  /* legacy: REX? / REX.W / REX2 (required) */
	int w, l, reg;            /* -1: any */
};

struct pats { struct pat *p; size_t n; };

static int hexbyte(const char *t, uint8_t *v)
{
	char *end;
	unsigned long x;

	if (!isxdigit((unsigned char)t[0]) || !isxdigit((unsigned char)t[1]) || t[2])
		return -1;
	x = strtoul(t, &end, 16);
	*v = (uint8_t)x;
	return 0;
}

/* "VEX.256.66.0F38.W1" / "EVEX.66.0F3A.WIG" / "XOP.128.09.W0" (AMD's XOP
 * maps 08, 09, 0A; its pp is always NP) / "EVEX.512.NP.MAP5.W0" (the SDM's
 * and the APX specification's names of maps 4 to 7) */
static int parse_vex_head(char *t, struct pat *p)
{
	char *part, *save = NULL;
	int n = 0;

	p->enc = t[0] == 'E' ? X86_EVEX : t[0] == 'X' ? X86_XOP : X86_VEX;
	for (part = strtok_r(t, ".", &save); part; part = strtok_r(NULL, ".", &save), n++) {
		if (!n)
			continue;
		if (!strcmp(part, "128") || !strcmp(part, "L0") || !strcmp(part, "LZ"))
			p->l = 0;
		else if (!strcmp(part, "256") || !strcmp(part, "L1"))
			p->l = 1;
		else if (!strcmp(part, "512"))
			p->l = 2;
		else if (!strcmp(part, "LIG"))
			p->l = -1;
		else if (!strcmp(part, "NP"))
			p->prefix = 0;
		else if (!strcmp(part, "66") || !strcmp(part, "F2") || !strcmp(part, "F3"))
			p->prefix = (uint8_t)strtoul(part, NULL, 16);
		else if (p->enc == X86_XOP && (!strcmp(part, "08") || !strcmp(part, "09") ||
		                               !strcmp(part, "0A")))
			p->map = (unsigned)strtoul(part, NULL, 16);
		else if (p->enc != X86_XOP && !strcmp(part, "0F"))
			p->map = X86_MAP_0F;
		else if (p->enc != X86_XOP && !strcmp(part, "0F38"))
			p->map = X86_MAP_0F38;
		else if (p->enc != X86_XOP && !strcmp(part, "0F3A"))
			p->map = X86_MAP_0F3A;
		else if (p->enc != X86_XOP && !strncmp(part, "MAP", 3) && part[3] >= '4' &&
		         part[3] <= '7' && !part[4])
			p->map = (unsigned)(part[3] - '0');
		else if (!strcmp(part, "W0") || !strcmp(part, "W1"))
			p->w = part[1] - '0';
		else if (!strcmp(part, "WIG"))
			p->w = -1;
		else
			return -1;
	}
	return p->map ? 0 : -1;
}

/* One alternative, its tokens separated by blanks. */
static int parse_alt(char *text, struct pat *p)
{
	char *tok, *save = NULL;
	int have_op = 0, in_map = 0;

	memset(p, 0, sizeof *p);
	p->w = p->l = p->reg = -1;
	for (tok = strtok_r(text, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		uint8_t b;
		if (!strncmp(tok, "VEX.", 4) || !strncmp(tok, "EVEX.", 5) || !strncmp(tok, "XOP.", 4)) {
			if (have_op || p->enc != X86_LEGACY || parse_vex_head(tok, p))
				return -1;
		} else if (!strcmp(tok, "REX?")) {
			p->rex_ok = 1;
		} else if (!strcmp(tok, "REX.W")) {
			p->rex_ok = p->rex_w = 1;
		} else if (!strcmp(tok, "REX2")) {
			if (p->enc != X86_LEGACY)
				return -1;
			p->rex_ok = p->rex2 = 1;
		} else if (!strcmp(tok, "*")) {
			if (have_op)
				return -1;
			p->any_op = have_op = 1;
		} else if (!strcmp(tok, "/r")) {
			if (!have_op)
				return -1;
		} else if (tok[0] == '/' && tok[1] >= '0' && tok[1] <= '7' && !tok[2]) {
			if (!have_op)
				return -1;
			p->reg = tok[1] - '0';
		} else if (!strcmp(tok, "ib") || !strcmp(tok, "iw") || !strcmp(tok, "id") ||
		           !strcmp(tok, "io") || !strcmp(tok, "iz")) {
			if (!have_op)
				return -1;   /* the decoder knows immediate sizes */
		} else if (!hexbyte(tok, &b)) {
			if (have_op) {
				if (p->any_op || p->ntail == sizeof p->tail)
					return -1;
				p->tail[p->ntail++] = b;
			} else if (p->enc != X86_LEGACY) {
				p->opcode = b;
				have_op = 1;
			} else if (in_map == 1 && (b == 0x38 || b == 0x3a)) {
				p->map = b == 0x38 ? X86_MAP_0F38 : X86_MAP_0F3A;
				in_map = 2;
			} else if (!in_map && b == 0x0f) {
				p->map = X86_MAP_0F;
				in_map = 1;
			} else if (!in_map && (b == 0x66 || b == 0xf2 || b == 0xf3)) {
				p->prefix = b;
			} else {
				p->opcode = b;
				have_op = 1;
			}
		} else {
			return -1;
		}
	}
	/* a legacy `*` says which instructions only with REX2 */
	return have_op && (!p->any_op || p->enc != X86_LEGACY || p->rex2) ? 0 : -1;
}

static void x86_audit_free(void *pats)
{
	struct pats *fp = pats;
	if (fp)
		free(fp->p);
	free(fp);
}

static int x86_audit_compile(const struct feature *f, void **out, char *err, size_t errlen)
{
	char *text, *alt, *save = NULL;
	size_t n = 1;
	struct pats *fp;

	const char *audit = x86_of(f)->audit;
	*out = NULL;
	if (!audit)
		return 0;
	for (const char *s = audit; *s; s++)
		n += *s == ';';
	fp = xcalloc(1, sizeof *fp);
	fp->p = xcalloc(n, sizeof *fp->p);
	text = xstrdup(audit);
	for (alt = strtok_r(text, ";", &save); alt; alt = strtok_r(NULL, ";", &save)) {
		char copy[256];
		snprintf(copy, sizeof copy, "%s", alt);
		if (parse_alt(alt, &fp->p[fp->n])) {
			snprintf(err, errlen, "feature %.60s: bad audit pattern \"%.120s\"", f->name, copy);
			free(text);
			x86_audit_free(fp);
			return -1;
		}
		fp->n++;
	}
	free(text);
	*out = fp;
	return 0;
}

static int matches(const struct pat *p, const struct x86_insn *in, const uint8_t *bytes)
{
	if (p->enc != in->enc || (p->rex2 && !in->has_rex2))
		return 0;
	if (p->any_op && p->enc == X86_LEGACY)      /* `REX2 *`: either map REX2.M0 picks */
		return 1;
	if (p->map != in->map || (!p->any_op && p->opcode != in->opcode))
		return 0;
	if (p->enc == X86_LEGACY) {
		uint8_t rep = in->pp == 0xf2 || in->pp == 0xf3 ? in->pp : 0;
		/* Without 66/F2/F3 in the pattern, 66 may still size the operands. */
		if (p->prefix == 0x66 ? !in->has66 || rep : p->prefix != rep)
			return 0;
		/* REX2 holds what REX does: a REX? pattern takes it too */
		if (((in->rex || in->has_rex2) && !p->rex_ok) || (p->rex_w && !in->w))
			return 0;
	} else {
		/* `*` takes any pp; a length or W given still counts */
		if ((!p->any_op && p->prefix != in->pp) || (p->w >= 0 && p->w != in->w) ||
		    (p->l >= 0 && p->l != in->l))
			return 0;
	}
	if (p->reg >= 0 && (!in->has_modrm || (in->modrm >> 3 & 7) != p->reg))
		return 0;
	if (p->ntail > in->len - in->after_opcode ||
	    memcmp(bytes + in->after_opcode, p->tail, p->ntail))
		return 0;
	return 1;
}

/* The decoded fields in arch_insn.scratch (see arch.h). */
_Static_assert(sizeof(struct x86_insn) <= ARCH_INSN_SCRATCH, "ARCH_INSN_SCRATCH too small for x86_insn");

static void insn_put(struct arch_insn *in, const struct x86_insn *x)
{
	memcpy(in->scratch, x, sizeof *x);
}

static struct x86_insn insn_get(const struct arch_insn *in)
{
	struct x86_insn x;
	memcpy(&x, in->scratch, sizeof x);
	return x;
}

static int x86_audit_match(const struct feature *f, const void *pats, const struct arch_insn *in,
                           const uint8_t *bytes)
{
	const struct pats *fp = pats;
	const struct x86_insn x = insn_get(in);
	(void)f;
	for (size_t k = 0; fp && k < fp->n; k++)
		if (matches(&fp->p[k], &x, bytes))
			return 1;
	return 0;
}

static unsigned insn_decode(const uint8_t *p, size_t n, int bits, struct arch_insn *in)
{
	struct x86_insn x;
	memset(in, 0, sizeof *in);
	in->len = x86_decode(p, n, bits, &x);
	if (in->len)
		insn_put(in, &x);
	return in->len;
}

static unsigned decode64(const uint8_t *p, size_t n, int mode, struct arch_insn *in)
{
	(void)mode;
	return insn_decode(p, n, 64, in);
}

static unsigned decode32(const uint8_t *p, size_t n, int mode, struct arch_insn *in)
{
	(void)mode;
	return insn_decode(p, n, 32, in);
}

/* ---- cpu: CPUID bits and XCR0 (XGETBV, only when the OS has set
 * CR4.OSXSAVE) ---- */

#if defined(__x86_64__) || defined(__i386__)
static void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static unsigned long long xgetbv0(void)
{
	unsigned lo, hi;
	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
	return (unsigned long long)hi << 32 | lo;
}

/* The highest leaf of the range `leaf` belongs to (0 or 0x80000000). */
static int leaf_exists(unsigned leaf)
{
	unsigned r[4];
	cpuid(leaf & 0x80000000u, 0, r);
	return leaf <= r[0];
}

/* XCR0, or 0 when the OS has not set OSXSAVE (then XGETBV would fault). */
static unsigned long long os_xcr0(int *osxsave)
{
	unsigned r1[4];
	cpuid(1, 0, r1);
	*osxsave = r1[2] >> 27 & 1;
	return *osxsave ? xgetbv0() : 0;
}

static int x86_cpu_runs(const struct feature *f, struct buf *why)
{
	const struct x86_feature *d = x86_of(f);
	int ok = 1, osxsave;
	for (size_t b = 0; b < d->ncpuid; b++) {
		const struct x86_cpuid *q = &d->cpuid[b];
		unsigned r[4] = {0};
		const char *reg = (const char *[]){"eax", "ebx", "ecx", "edx"}[q->reg];
		if (leaf_exists(q->leaf))
			cpuid(q->leaf, q->subleaf, r);
		unsigned field = r[q->reg] >> q->bit & (q->width ? (unsigned)((1ull << q->width) - 1) : 1);
		if (q->width && field < q->min) {
			ok = 0;
			buf_printf(why, "%sCPUID.(%#x,%u):%s[%u:%u] is %u, below %u", why->n ? "; " : "",
			           q->leaf, q->subleaf, reg, q->bit + q->width - 1, q->bit, field, q->min);
		} else if (!q->width && !field) {
			ok = 0;
			buf_printf(why, "%sCPUID.(%#x,%u):%s bit %u clear", why->n ? "; " : "", q->leaf,
			           q->subleaf, reg, q->bit);
		}
	}
	unsigned long long xcr0 = d->xcr0 ? os_xcr0(&osxsave) : 0;
	if (d->xcr0 && (xcr0 & d->xcr0) != d->xcr0) {
		ok = 0;
		buf_printf(why, "%sthe OS has not enabled XCR0 state %#llx (XCR0 %#llx)", why->n ? "; " : "",
		           (unsigned long long)d->xcr0, xcr0);
	}
	return ok;
}

static size_t x86_cpu_state(struct arch_cpu_state *s)
{
	int osxsave;
	unsigned long long xcr0 = os_xcr0(&osxsave);
	snprintf(s->name, sizeof s->name, "ASMCAP_CPU_XCR0");
	snprintf(s->value, sizeof s->value, "%#llx", xcr0);
	s->comment = osxsave ? "XGETBV(0)" : "OSXSAVE off: no XGETBV";
	return 1;
}
#define X86_CPU_RUNS x86_cpu_runs
#define X86_CPU_STATE x86_cpu_state
#else
#define X86_CPU_RUNS NULL
#define X86_CPU_STATE NULL
#endif

/* ---- frame ---- */

/* Stack adjustment made by x86-64 code[0..len): shrink-wrapped code may
 * test its arguments before the prologue, so the whole function is
 * decoded: the pushes met before the first ret, plus the largest
 * `sub $imm,%rsp`. */
static long x86_64_prologue_frame(const struct arch *a, const uint8_t *c, size_t len, int mode)
{
	long pushes = 0, sub = 0;
	int ret = 0;
	struct x86_insn in;
	(void)a;
	(void)mode;
	for (size_t i = 0; i < len; i += in.len) {
		if (!x86_decode(c + i, len - i, 64, &in))
			return -1;
		const uint8_t *end = c + i + in.len;
		int legacy1 = in.enc == X86_LEGACY && in.map == X86_MAP_1BYTE;
		if (legacy1 && in.opcode == 0xc3)
			ret = 1;
		else if (legacy1 && in.opcode >= 0x50 && in.opcode <= 0x57 && !ret)
			pushes++;
		else if (legacy1 && in.w && in.has_modrm && in.modrm == 0xec && in.opcode == 0x83)
			sub = (long)end[-1] > sub ? (long)end[-1] : sub;
		else if (legacy1 && in.w && in.has_modrm && in.modrm == 0xec && in.opcode == 0x81) {
			uint32_t imm = (uint32_t)end[-4] | (uint32_t)end[-3] << 8 |
			               (uint32_t)end[-2] << 16 | (uint32_t)end[-1] << 24;
			if (imm < 0x80000000u && (long)imm > sub)
				sub = (long)imm;
		}
	}
	return 8 * pushes + sub;
}

/* ---- the modules ---- */

/* __CET__: bit 0 IBT, bit 1 SHSTK (-fcf-protection). */
static const char *const x86_macros[] = {"__CET__", NULL};

/* What the code generators follow (perlasm/Xlate.pm): CET's endbr64 and
 * property note, x32 refused, the Mach-O and Win64 ABIs. */
static const struct arch_fact x86_facts[] = {
	{"cet_ibt", "__CET__", ARCH_FACT_BIT, 1, "__CET__ & 1", "CET", "ibt"},
	{"cet_shstk", "__CET__", ARCH_FACT_BIT, 2, "__CET__ & 2", "CET", "shstk"},
	ARCH_FACT_PIC, ARCH_FACT_ILP32, ARCH_FACT_APPLE, ARCH_FACT_WIN64, {0},
};

/* GNU_PROPERTY_X86_FEATURE_1_AND (x86-64 psABI): the CET marks */
static const char *const cet_bits[] = { "ibt", "shstk", NULL };

/* A NOP form assemblers pad with: 90 (no REX.B: 41 90 is xchg), or
 * 0f 1f /0, after only 66 and segment prefixes. */
static int x86_nop(const uint8_t *p, const struct x86_insn *in)
{
	int long_nop = in->map == X86_MAP_0F && in->opcode == 0x1f && in->has_modrm && !(in->modrm & 0x38);
	if (in->enc != X86_LEGACY || !(long_nop || (in->map == X86_MAP_1BYTE && in->opcode == 0x90)) ||
	    (in->rex & 1))
		return 0;
	size_t start = in->after_opcode - (long_nop ? 2 : 1) - (in->rex != 0);
	for (size_t i = 0; i < start; i++)
		if (p[i] != 0x66 && p[i] != 0x2e && p[i] != 0x3e)
			return 0;
	return 1;
}

/* GNU as's LVI ret guard (-mlfence-before-ret=or|shl|not and
 * -mlfence-before-indirect-branch): or $0 / shl $0 / two not on the return
 * address at (%rsp) or (%esp), before its lfence.  Its length, or 0. */
static unsigned x86_ret_guard(const uint8_t *p, size_t n, int bits)
{
	static const uint8_t guards[][6] = {{0x83, 0x0c, 0x24, 0x00}, {0xc1, 0x24, 0x24, 0x00},
	                                    {0xf7, 0x14, 0x24}};
	static const unsigned glen[] = {4, 4, 3}, times[] = {1, 1, 2};
	unsigned w = bits == 64;        /* REX.W: the 64-bit return address */
	for (size_t g = 0; g < sizeof glen / sizeof *glen; g++) {
		unsigned one = w + glen[g], k;
		for (k = 0; k < times[g]; k++)
			if (n < (k + 1) * one || (w && p[k * one] != 0x48) || memcmp(p + k * one + w, guards[g], glen[g]))
				break;
		if (k == times[g])
			return one * times[g];
	}
	return 0;
}

static unsigned x86_inserted(const uint8_t *p, size_t n, int bits, const char **what)
{
	static const uint8_t lfence[] = {0x0f, 0xae, 0xe8};
	struct x86_insn in;
	unsigned len;
	if (n >= 3 && !memcmp(p, lfence, 3)) {
		*what = "lfence (0f ae e8)";
		return 3;
	}
	if ((len = x86_ret_guard(p, n, bits))) {
		*what = "an LVI return-address guard";
		return len;
	}
	if ((len = x86_decode(p, n, bits, &in)) && x86_nop(p, &in)) {
		*what = "nop padding";
		return len;
	}
	/* a segment prefix before an instruction (branch alignment) */
	if (n > 1 && (p[0] == 0x2e || p[0] == 0x3e || p[0] == 0x26 || p[0] == 0x36)) {
		*what = "segment-prefix padding";
		return 1;
	}
	return 0;
}

/* What the 64- and 32-bit modules share: all but the object machine, the
 * decoder's width and the prologue reader. */
#define X86_COMMON \
	.orders = ARCH_ORDER_LE, .dialect = CAT_OPCODES, .keys = &x86_keys, .macros = x86_macros, .facts = x86_facts, .scope = ARCH_SCOPE_NONE, \
	.min_insn = 1, .audit_compile = x86_audit_compile, .audit_free = x86_audit_free, \
	.audit_match = x86_audit_match, .inserted = x86_inserted, \
	.cpu_runs = X86_CPU_RUNS, .cpu_state = X86_CPU_STATE, \
	.gnu_property = 0xc0000002, .gnu_property_bits = cet_bits

const struct arch arch_x86_64 = {
	.name = "x86_64", .bits = 64, .runs_too = &arch_i386,
#if defined(__x86_64__)
	.is_host = 1,
#endif
	.elf_machine = 62, .elf_any_class = 1, .coff_machine = 0x8664, .macho_cputype = 0x01000007,
	.decode = decode64, .prologue_frame = x86_64_prologue_frame,
	X86_COMMON,
};

const struct arch arch_i386 = {
	.name = "i386", .bits = 32,
#if defined(__i386__)
	.is_host = 1,
#endif
	.elf_machine = 3, .coff_machine = 0x14c, .macho_cputype = 7,
	.decode = decode32, .prologue_frame = NULL,
	X86_COMMON,
};

