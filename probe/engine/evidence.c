/* SPDX-License-Identifier: MIT */
/* The evidence of one snippet in an assembler run's object: its bytes
 * between its labels against the catalog's `expect:' (the architecture's
 * inserted forms allowed), its `section:', its `attribute:'; and the
 * verdict they give. */
#include "asmrun.h"
#include "arch.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a run's object holds for a snippet: its bytes, if they were found. */
struct found { const uint8_t *got; size_t ngot; int located; };

static int contains(const uint8_t *hay, size_t n, const uint8_t *needle, size_t k)
{
	for (size_t i = 0; k <= n && i <= n - k; i++)
		if (!memcmp(hay + i, needle, k))
			return 1;
	return 0;
}

/* What explain shows: the run that decided the verdict. */
static void keep_run(struct verdict *v, const struct asm_run *u)
{
	free(v->cmd);
	free(v->stderr_text);
	free(v->source);
	v->cmd = argv_join(u->argv.v);
	v->stderr_text = xstrdup(u->job.r.err);
	v->source = xstrdup(u->text);
	v->shared = u->n;
}

/* A directive's snippet: its section present and holding one of the
 * expected patterns (or anything, where the feature asks for that).
 * 1 yes, or 0 with why. */
static int check_section(const struct feature *f, const struct obj *o, struct found *g, struct buf *why)
{
	const struct obj_section *s = obj_section_listed(o, f->section);
	int ok = 0;
	if (!s) {
		buf_printf(why, "exited 0 but wrote no %s section", f->section);
		return 0;
	}
	g->located = 1;
	g->got = s->data;
	g->ngot = s->data ? s->size : 0;
	if (f->expect_nonempty)
		ok = g->ngot > 0;
	for (size_t k = 0; k < f->nexpect && !ok; k++)
		ok = contains(g->got, g->ngot, f->expect[k].b, f->expect[k].n);
	if (!ok && !g->ngot)
		buf_printf(why, "exited 0 but section %s is empty", s->name);
	else if (!ok) {
		buf_printf(why, "section %s holds ", s->name);
		buf_hex(why, g->got, g->ngot > 48 ? 48 : g->ngot);
		buf_puts(why, g->ngot > 48 ? " ...; expected " : "; expected ");
		buf_hex(why, f->expect[0].b, f->expect[0].n);
	}
	return ok;
}

/* got[0..ng) is want[0..nw) with only what the build's own flags insert
 * (a->inserted: LVI lfences, nop and prefix padding) between or after
 * want's instructions, each of those whole and in order: 1 with how
 * naming each kind inserted, else 0.  The snippet's own bytes stay exact. */
static int match_inserted(const struct arch *a, const uint8_t *want, size_t nw, const uint8_t *got, size_t ng,
                          struct buf *how)
{
	const char *kinds[8];
	unsigned count[8], nk = 0;
	size_t i = 0, j = 0;
	while (i < nw || j < ng) {
		struct arch_insn in;
		unsigned len = i < nw ? a->decode(want + i, nw - i, 0, &in) : 0;
		if (i < nw && !len)
			return 0;       /* the expected bytes do not decode: nothing to align */
		if (len && j + len <= ng && !memcmp(want + i, got + j, len)) {
			i += len;
			j += len;
			continue;
		}
		const char *what = NULL;
		unsigned k = j < ng ? a->inserted(got + j, ng - j, a->bits, &what) : 0, m = 0;
		if (!k)
			return 0;
		while (m < nk && strcmp(kinds[m], what))
			m++;
		if (m == nk && nk == sizeof kinds / sizeof *kinds)
			return 0;
		if (m == nk) {
			kinds[nk] = what;
			count[nk++] = 0;
		}
		count[m]++;
		j += k;
	}
	if (!nk)
		return 0;       /* exactly want: check_code has said so already */
	buf_puts(how, "as expected, with what the build's assembler flags insert: ");
	for (unsigned m = 0; m < nk; m++) {
		buf_printf(how, "%s%s", m ? ", " : "", kinds[m]);
		if (count[m] > 1)
			buf_printf(how, " x%u", count[m]);
	}
	return 1;
}

/* An instruction's snippet (number fi in the run): the bytes between its
 * labels asmcap_b_FI and asmcap_e_FI, exactly one of the expected
 * encodings, or one with what the build's flags insert (match_inserted).
 * 1 yes (how says what was inserted), or 0 with why. */
static int check_code(const struct arch *a, const struct feature *f, size_t fi, const struct obj *o,
                      struct found *g, struct buf *why, struct buf *how)
{
	char bn[48], en[48];
	int ok = 0;
	snprintf(bn, sizeof bn, "asmcap_b_%zu", fi);
	snprintf(en, sizeof en, "asmcap_e_%zu", fi);
	const struct obj_symbol *b = obj_symbol_named(o, bn), *e = obj_symbol_named(o, en);
	if (!b || !e || b->section < 0 || b->section != e->section || e->value < b->value ||
	    (size_t)b->section >= o->nsections || !o->sections[b->section].data ||
	    e->value > o->sections[b->section].size) {
		buf_puts(why, "exited 0 but the object holds no code for it");
		return 0;
	}
	g->located = 1;
	g->got = o->sections[b->section].data + b->value;
	g->ngot = e->value - b->value;
	for (size_t k = 0; k < f->nexpect && !ok; k++)
		ok = f->expect[k].n == g->ngot && !memcmp(f->expect[k].b, g->got, g->ngot);
	for (size_t k = 0; a && a->inserted && k < f->nexpect && !ok; k++)
		ok = match_inserted(a, f->expect[k].b, f->expect[k].n, g->got, g->ngot, how);
	if (!ok && !g->ngot)
		buf_puts(why, "exited 0 but assembled it to nothing");
	else if (!ok) {
		buf_puts(why, "mis-encoded: got ");
		buf_hex(why, g->got, g->ngot);
		buf_puts(why, ", expected ");
		buf_hex(why, f->expect[0].b, f->expect[0].n);
	}
	return ok;
}

/* A snippet whose bytes matched, and whose effect is a build attribute
 * (`attribute:'): yes when the object records the value; no when it
 * records another or none (the directive was taken and did nothing: an
 * exit status would have said yes); broken when the attributes do not
 * parse.  The folder's module reads them (only a module with the hook
 * takes the key).  The run held this snippet alone (split_shared_sections). */
static enum status check_attribute(const struct feature *f, const struct obj *o, struct buf *why)
{
	const struct arch *a = arch_named(f->arch);
	int r = a && a->evidence_attribute ? a->evidence_attribute(o, f->attr_tag, f->attr_value, why) : 0;
	return r < 0 ? ST_BROKEN : r ? ST_YES : ST_NO;
}

/* The verdict for snippet f after a run that exited 0. */
void evidence_decide(struct ctx *x, size_t fi, const struct obj *o, const char *warn,
                   const char *general, const struct asm_run *u, struct verdict *v)
{
	const struct feature *f = &x->p->cat.f[fi];
	struct buf why = {0}, how = {0};
	struct found g = {0};
	if (warn) {
		/* A warning on the snippet's lines rejects it: clang-14 only
		 * warns about an `.option arch' it does not know, and GNU as
		 * warns where it drops or changes what it was given. */
		char *msg = xprintf("assembler warned: %s", warn);
		evidence_record_failure(x, fi, u, msg);
		free(msg);
		return;
	}
	int ok = f->section ? check_section(f, o, &g, &why)
	                    : check_code(x->p->target, f, fi, o, &g, &why, &how);
	enum status st = !ok ? ST_BROKEN : f->attr_tag ? check_attribute(f, o, &why) : ST_YES;
	ok = st == ST_YES;
	if (!ok && general)
		buf_printf(&why, "; it said: %s", general);
	if (!ok && !why.n)
		buf_puts(&why, "bytes not found");
	if (ok) {
		buf_free(&why);
		why = how;
	} else
		buf_free(&how);
	verdict_set(v, st, why.s ? why.s : xstrdup(""), u->job.r.ms);
	free(v->got);
	v->got = NULL;
	v->ngot = g.ngot;
	v->have_got = g.located;
	if (g.ngot) {
		v->got = xmalloc(g.ngot);
		memcpy(v->got, g.got, g.ngot);
	}
	keep_run(v, u);
}

void evidence_record_failure(struct ctx *x, size_t fi, const struct asm_run *u, const char *msg)
{
	struct verdict *v = &x->p->v[fi];
	verdict_set(v, ST_NO, xprintf("rejected: %s", msg), u->job.r.ms);
	keep_run(v, u);
	v->have_got = 0;
}
