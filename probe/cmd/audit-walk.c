/* SPDX-License-Identifier: MIT */
/* Walking an object's code for `asmcap audit': the symbols of each code
 * section in address order, each function's bytes decoded as its mapping
 * symbols say (words.h) and every instruction matched against the
 * catalog's features; what no symbol covers becomes rows of its own. */
#include <stdlib.h>
#include <string.h>

#include "audit-walk.h"
#include "words.h"
#include "xalloc.h"

struct scan { const struct arch_cat *c; const uint8_t *data; struct row *r; };

static void count(void *ctx, uint64_t off, const struct arch_insn *in, unsigned step)
{
	struct scan *sc = ctx;
	if (!in) {
		sc->r->undecoded += step;
		return;
	}
	for (size_t i = 0; i < sc->c->cat.n; i++)
		if (sc->c->arch->audit_match(&sc->c->cat.f[i], sc->c->pats[i], in, sc->data + off))
			sc->r->hits[i]++;
}

/* The code of a section: its bytes and the spans its mapping symbols mark
 * (data skipped, ARM's A32 and Thumb apart). */
struct code { const uint8_t *data; const struct code_span *spans; size_t nspans; };

/* Linear decode of code[from..to), counting pattern hits per feature. */
static void scan(const struct arch_cat *c, const struct code *k, uint64_t from, uint64_t to,
                 struct row *r)
{
	struct scan sc = { c, k->data, r };
	words_code_walk(c->arch, k->spans, k->nspans, k->data, from, to, count, &sc);
}

/* Symbols by section, then in address order; at equal addresses
 * functions and globals first, so an alias is reported under its best
 * name. */
static const struct obj *sort_obj;
static int by_value(const void *x, const void *y)
{
	const struct obj_symbol *a = &sort_obj->symbols[*(const size_t *)x];
	const struct obj_symbol *b = &sort_obj->symbols[*(const size_t *)y];

	if (a->section != b->section)
		return a->section < b->section ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (a->is_func != b->is_func)
		return b->is_func - a->is_func;
	if (a->is_global != b->is_global)
		return b->is_global - a->is_global;
	return strcmp(a->name, b->name);
}

/* ELF says what every symbol is: only functions are code.  COFF (without
 * the function type) and Mach-O do not: a symbol in code is taken as code
 * unless known to be data. */
static int decodable(const struct obj_symbol *s)
{
	return s->is_func || (!s->typed && !s->is_data);
}


static struct row *add_row(struct rows *rs, const char *name, int section, uint64_t off)
{
	struct row *r;

	if (rs->n == rs->cap)
		rs->r = xrealloc(rs->r, (rs->cap = rs->cap ? 2 * rs->cap : 16) * sizeof *rs->r);
	r = &rs->r[rs->n];
	memset(r, 0, sizeof *r);
	r->hits = xcalloc(rs->nfeat, sizeof *r->hits);
	rs->n++;
	r->name = name;
	r->section = section;
	r->off = off;
	return r;
}

/* Code no symbol covers (a stripped library's local functions, padding)
 * is decoded too, into one row per section. */
static void scan_gap(struct rows *rs, size_t *gap, int si, const struct arch_cat *c,
                     const struct code *k, uint64_t from, uint64_t to)
{
	if (*gap == SIZE_MAX) {
		add_row(rs, NULL, si, from);
		*gap = rs->n - 1;
	}
	rs->r[*gap].size += to - from;
	scan(c, k, from, to, &rs->r[*gap]);
}

/* Section si, whose symbols are sym[0..nsym) in by_value order.  Each
 * symbol costs O(1) besides the bytes decoded, and each byte is decoded
 * once: bytes an earlier function already covers count under it alone (a
 * hostile object's thousands of symbols at one address, or over the same
 * bytes, cost no more than their count). */
static void audit_section(const struct obj *o, int si, const size_t *sym, size_t nsym, const struct arch_cat *c,
                          struct rows *rs)
{
	const struct obj_section *sec = &o->sections[si];
	struct code_span *spans;
	size_t nspans = words_code_spans(o, sym, nsym, si, 0, &spans);
	struct code code = { sec->data, spans, nspans };
	size_t *idx = xcalloc(nsym + 1, sizeof *idx), n = 0, nfunc = 0, next = 0;
	uint64_t covered = 0, decoded = 0, last_start = UINT64_MAX;
	size_t gap = SIZE_MAX;    /* index: add_row may move the rows */

	for (size_t i = 0; i < nsym; i++)
		if (o->symbols[sym[i]].value < sec->size && !o->symbols[sym[i]].mapping)
			idx[n++] = sym[i];
	for (size_t k = 0; k < n; k++)
		nfunc += decodable(&o->symbols[idx[k]]);
	if (!nfunc) {
		struct row *r = add_row(rs, sec->name, si, 0);
		r->size = sec->size;
		scan(c, &code, 0, sec->size, r);
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		const struct obj_symbol *s = &o->symbols[idx[k]];
		uint64_t end = sec->size;
		if (s->size && s->size < sec->size - s->value)
			end = s->value + s->size;
		else if (!s->size) {
			/* the next symbol further on; `next' only moves forward */
			if (next <= k)
				next = k + 1;
			while (next < n && o->symbols[idx[next]].value <= s->value)
				next++;
			if (next < n)
				end = o->symbols[idx[next]].value;
		}
		if (s->value > covered)
			scan_gap(rs, &gap, si, c, &code, covered, s->value);
		if (end > covered)
			covered = end;
		if (!decodable(s) || s->value == last_start)
			continue;
		last_start = s->value;
		struct row *r = add_row(rs, s->name, si, s->value);
		r->size = end - s->value;
		/* Without mapping symbols (a stripped library) the function
		 * symbol says Thumb or A32. */
		if (code.nspans == 1)
			spans[0].mode = s->thumb ? ARCH_MODE_THUMB : 0;
		if (end > decoded) {
			scan(c, &code, s->value > decoded ? s->value : decoded, end, r);
			decoded = end;
		}
	}
	if (covered < sec->size)
		scan_gap(rs, &gap, si, c, &code, covered, sec->size);
out:
	free(spans);
	free(idx);
}

void audit_rows_free(struct rows *rs)
{
	for (size_t k = 0; k < rs->n; k++)
		free(rs->r[k].hits);
	free(rs->r);
}

static int is_audited(const struct obj_section *sec)
{
	return sec->is_code && sec->data;
}

/* Section indices by where their bytes start in the file. */
static const struct obj *data_obj;
static int by_data(const void *p, const void *q)
{
	uintptr_t a = (uintptr_t)data_obj->sections[*(const size_t *)p].data;
	uintptr_t b = (uintptr_t)data_obj->sections[*(const size_t *)q].data;
	return (a > b) - (a < b);
}

/* Audited sections whose bytes overlap in the file (no toolchain writes
 * them; hostile headers could make one stretch be decoded once per
 * section): 1 with two of them in *x < *y, or 0. */
int audit_overlapping_code(const struct obj *o, size_t *x, size_t *y)
{
	size_t *idx = xcalloc(o->nsections + 1, sizeof *idx), n = 0;
	int found = 0;
	for (size_t i = 0; i < o->nsections; i++)
		if (is_audited(&o->sections[i]) && o->sections[i].size)
			idx[n++] = i;
	data_obj = o;
	qsort(idx, n, sizeof *idx, by_data);
	for (size_t k = 0; k + 1 < n && !found; k++) {
		const struct obj_section *s = &o->sections[idx[k]], *t = &o->sections[idx[k + 1]];
		if ((uintptr_t)t->data - (uintptr_t)s->data < s->size) {
			*x = idx[k] < idx[k + 1] ? idx[k] : idx[k + 1];
			*y = idx[k] < idx[k + 1] ? idx[k + 1] : idx[k];
			found = 1;
		}
	}
	free(idx);
	return found;
}

/* Every code section, its symbols found by one sort of them all. */
void audit_code(const struct obj *o, const struct arch_cat *c, struct rows *rs)
{
	size_t *sym = xcalloc(o->nsymbols + 1, sizeof *sym), n = 0;
	for (size_t i = 0; i < o->nsymbols; i++)
		if (o->symbols[i].section >= 0 && (size_t)o->symbols[i].section < o->nsections &&
		    is_audited(&o->sections[o->symbols[i].section]))
			sym[n++] = i;
	sort_obj = o;
	qsort(sym, n, sizeof *sym, by_value);
	size_t k = 0;
	for (size_t si = 0; si < o->nsections; si++) {
		if (!is_audited(&o->sections[si]))
			continue;
		while (k < n && (size_t)o->symbols[sym[k]].section < si)
			k++;
		size_t e = k;
		while (e < n && (size_t)o->symbols[sym[e]].section == si)
			e++;
		audit_section(o, (int)si, sym + k, e - k, c, rs);
		k = e;
	}
	free(sym);
}
