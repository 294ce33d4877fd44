/* SPDX-License-Identifier: MIT */
/* The x86 modules' catalog keys: cpuid:, xcr0:, the opcode-notation
 * audit: (compiled by x86.c when audit runs), nasm: and masm:. */
#include "arch.h"
#include "x86keys.h"
#include "xalloc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "HI:LO" of a `bits=` field into c->bit and c->width. */
static int parse_field(const char *v, struct x86_cpuid *c)
{
	unsigned hi, lo;
	int end = 0;
	if (sscanf(v, "%u:%u%n", &hi, &lo, &end) != 2 || v[end] || hi < lo || hi > 31)
		return -1;
	c->bit = lo;
	c->width = hi - lo + 1;
	return 0;
}

/* "leaf=N subleaf=N reg=R bit=N", or "... bits=HI:LO min=N" for a field. */
static int parse_cpuid(char *v, struct x86_cpuid *c)
{
	static const char *regs[] = {"eax", "ebx", "ecx", "edx"};
	int have = 0;
	memset(c, 0, sizeof *c);
	for (char *tok = strtok(v, " \t"); tok; tok = strtok(NULL, " \t")) {
		char *eq = strchr(tok, '=');
		if (!eq)
			return -1;
		*eq++ = 0;
		if (!strcmp(tok, "reg")) {
			size_t i;
			for (i = 0; i < 4 && strcmp(eq, regs[i]); i++)
				;
			if (i == 4 || (have & 4))
				return -1;
			c->reg = i;
			have |= 4;
			continue;
		}
		if (!strcmp(tok, "bits")) {     /* a field, in place of bit= */
			if ((have & 8) || parse_field(eq, c))
				return -1;
			have |= 8;
			continue;
		}
		unsigned long long x;
		if (cat_number(eq, UINT_MAX, &x))
			return -1;
		int bit = !strcmp(tok, "leaf") ? 1 : !strcmp(tok, "subleaf") ? 2 :
		          !strcmp(tok, "bit") && x < 32 ? 8 : !strcmp(tok, "min") ? 16 : 0;
		if (!bit || (have & bit))
			return -1;      /* unknown, out of range or given twice */
		*(bit == 1 ? &c->leaf : bit == 2 ? &c->subleaf : bit == 8 ? &c->bit : &c->min) = (unsigned)x;
		have |= bit;
	}
	/* a field needs its minimum, a bit has none */
	return (have & 13) == 13 && !c->width == !(have & 16) ? 0 : -1;
}

static int set_audit(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	(void)f;
	(void)key;
	(void)why;
	(void)whylen;
	((struct x86_feature *)data)->audit = xstrdup(v);
	return 0;
}

static int set_cpuid(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	struct x86_feature *d = data;
	(void)f;
	(void)key;
	if (d->ncpuid < CAT_MAX_ALT && !parse_cpuid(v, &d->cpuid[d->ncpuid])) {
		d->ncpuid++;
		return 0;
	}
	snprintf(why, whylen, "bad cpuid line (want `leaf=N subleaf=N reg=eax|ebx|ecx|edx bit=N' or "
	         "`... bits=HI:LO min=N', at most %d)", CAT_MAX_ALT);
	return -1;
}

static int set_xcr0(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	unsigned long long x;
	(void)f;
	(void)key;
	if (!cat_number(v, UINT64_MAX, &x)) {
		((struct x86_feature *)data)->xcr0 = x;
		return 0;
	}
	snprintf(why, whylen, "bad xcr0 `%s' (want a 64-bit number such as 0xe6)", v);
	return -1;
}

/* `nasm: none' and `masm: none': that way in has no syntax for it (the
 * engine reads the flags: the ways in are its). */
static int set_none(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	(void)data;
	if (!strcmp(v, "none")) {
		*(key[0] == 'n' ? &f->nasm_none : &f->masm_none) = 1;
		return 0;
	}
	snprintf(why, whylen, "`%s:' takes only `none'", key);
	return -1;
}

static void x86_keys_free(void *data)
{
	free(((struct x86_feature *)data)->audit);
}

static int x86_cpu_checks(const void *data)
{
	return ((const struct x86_feature *)data)->ncpuid > 0;
}

static const struct cat_key keys[] = {
	{"audit", 0, set_audit}, {"cpuid", 1, set_cpuid}, {"xcr0", 0, set_xcr0},
	{"nasm", 0, set_none}, {"masm", 0, set_none}, {NULL, 0, NULL},
};
const struct cat_keys x86_keys = { keys, sizeof(struct x86_feature), NULL, x86_keys_free, x86_cpu_checks };

const struct x86_feature *x86_of(const struct feature *f)
{
	static const struct x86_feature none;
	const struct x86_feature *d = arch_keyed(f, &x86_keys);
	return d ? d : &none;
}
