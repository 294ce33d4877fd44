/* SPDX-License-Identifier: MIT */
/* The plan: which catalog is loaded (with the features --features names
 * from other architectures, to be answered `skipped'), which features run,
 * which must run alone, and the verdicts decided without a run. */
#include "asmrun.h"
#include "arch.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int plan_feature_list(const struct catalog *c, const char *list, unsigned char *want,
                 const char *what, char *err, size_t errlen)
{
	struct strv w = {0};
	char e[64];
	char *copy = xstrdup(list);
	for (char *p = copy; *p; p++)
		if (*p == ',')
			*p = ' ';
	argv_split_words(copy, &w, e, sizeof e);
	free(copy);
	for (size_t i = 0; i < w.n; i++) {
		size_t k;
		for (k = 0; k < c->n && strcmp(c->f[k].name, w.v[i]); k++)
			;
		if (k == c->n) {
			snprintf(err, errlen, "%s: unknown feature `%s' (see `asmcap list')", what, w.v[i]);
			strv_free(&w);
			return -1;
		}
		want[k] = 1;
	}
	strv_free(&w);
	return 0;
}

/* verdict_clear frees what v holds and zeroes it. */
void verdict_clear(struct verdict *v)
{
	free(v->reason); free(v->cmd); free(v->stderr_text); free(v->source); free(v->got);
	memset(v, 0, sizeof *v);
}

static void verdict_array_free(struct verdict **vs, size_t n)
{
	for (size_t i = 0; *vs && i < n; i++)
		verdict_clear(&(*vs)[i]);
	free(*vs);
	*vs = NULL;
}

void verdicts_free(struct probe *p)
{
	verdict_array_free(&p->v, p->cat.n);
	verdict_array_free(&p->vf, p->cat.n);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct feature *)a)->name, ((const struct feature *)b)->name);
}

/* The catalog folder of target arch: its module's (ppc64 objects are
 * ppc64le's business), else arch itself. */
static const char *catalog_of(const char *arch)
{
	const struct arch *a = arch_named(arch);
	return a ? a->name : arch;
}

/* Move the features named in w from the other architectures' catalogs
 * into p's, with what they require (named in w too); 1 when any moved. */
static int move_foreign(struct probe *p, const struct probe_opts *o, struct strv *w)
{
	int moved = 0;
	for (const struct arch *const *a = arch_all; *a; a++) {
		struct catalog other;
		char err[256];
		if (!strcmp((*a)->name, catalog_of(p->arch)) || catalog_load(&other, o->templates, (*a)->name, err, sizeof err))
			continue;       /* a --templates tree may hold some architectures only */
		for (size_t i = 0; i < other.n; i++) {
			if (!strv_has(w, other.f[i].name) || catalog_find(&p->cat, other.f[i].name))
				continue;
			for (size_t k = 0; k < other.f[i].nrequires; k++)
				if (!strv_has(w, other.f[i].requires[k]))
					strv_push(w, other.f[i].requires[k]);
			p->cat.f = xrealloc(p->cat.f, (p->cat.n + 1) * sizeof *p->cat.f);
			p->cat.f[p->cat.n++] = other.f[i];
			memset(&other.f[i], 0, sizeof other.f[i]);      /* moved */
			qsort(p->cat.f, p->cat.n, sizeof *p->cat.f, by_name);
			moved = 1;
		}
		catalog_free(&other);
	}
	return moved;
}

/* Features asked for by --features that belong to another architecture's
 * catalog join this one, to be answered `skipped' (not for this target):
 * a build that asks for adx and sha3 alike works on every target.  What
 * they require comes too (Asmcap.pm checks `requires' within the file). */
static void add_foreign(struct probe *p, const struct probe_opts *o)
{
	struct strv w = {0};
	char e[64], *copy = xstrdup(o->features);
	for (char *c = copy; *c; c++)
		if (*c == ',')
			*c = ' ';
	argv_split_words(copy, &w, e, sizeof e);
	free(copy);
	while (move_foreign(p, o, &w))
		;
	strv_free(&w);
}

int probe_load_catalog(struct probe *p, const struct probe_opts *o, const char *arch, char *err, size_t errlen)
{
	char sub[4096];
	struct stat st;
	verdicts_free(p);
	catalog_free(&p->cat);
	snprintf(sub, sizeof sub, "%s/%s", o->templates ? o->templates : "", catalog_of(arch));
	if (arch_named(arch) && (!o->templates || !stat(sub, &st)) &&
	    catalog_load(&p->cat, o->templates, catalog_of(arch), err, errlen))
		return 2;
	snprintf(p->arch, sizeof p->arch, "%s", arch);
	/* another architecture's feature may write a variable one here writes */
	if (o->features)
		add_foreign(p, o);
	if (o->features && catalog_check_vars(&p->cat, err, errlen))
		return 2;
	p->v = xcalloc(p->cat.n + 1, sizeof *p->v);
	p->vf = xcalloc(p->cat.n + 1, sizeof *p->vf);
	return 0;
}

/* Add to want[] everything its features require, transitively: a
 * worklist, each feature taken once (linear in the requires edges). */
static void want_required(const struct catalog *c, unsigned char *want)
{
	size_t *todo = xcalloc(c->n + 1, sizeof *todo), n = 0;
	for (size_t i = 0; i < c->n; i++)
		if (want[i])
			todo[n++] = i;
	while (n) {
		const struct feature *f = &c->f[todo[--n]];
		for (size_t k = 0; k < f->nrequires; k++) {
			const struct feature *q = catalog_find(c, f->requires[k]);
			if (q && !want[q - c->f]) {
				want[q - c->f] = 1;
				todo[n++] = (size_t)(q - c->f);
			}
		}
	}
	free(todo);
}

/* Which features run, given the object format; others get their verdict now. */
int plan_runs(struct ctx *x, enum obj_format fmt, size_t *run, size_t *nrun, char *err, size_t errlen)
{
	struct probe *p = x->p;
	size_t n = p->cat.n;
	unsigned char *want = xcalloc(n + 1, 1), *off = xcalloc(n + 1, 1), *envoff = xcalloc(n + 1, 1);
	int r = 0;
	if (x->o->features) {
		if (plan_feature_list(&p->cat, x->o->features, want, "--features", err, errlen))
			r = 2;
		/* what they require is probed too: "adx" alone could not be usable */
		want_required(&p->cat, want);
	} else
		memset(want, 1, n);
	if (!r && x->o->disable && plan_feature_list(&p->cat, x->o->disable, off, "--disable", err, errlen))
		r = 2;
	const char *env = getenv("ASMCAP_DISABLE");
	if (!r && env && plan_feature_list(&p->cat, env, envoff, "ASMCAP_DISABLE", err, errlen))
		r = 2;
	*nrun = 0;
	for (size_t i = 0; !r && i < n; i++) {
		const struct feature *f = &p->cat.f[i];
		struct verdict *v = &p->v[i];
		if (!want[i])
			verdict_set(v, ST_UNPROBED, xstrdup("not in --features"), 0);
		else if (strcmp(f->arch, catalog_of(p->arch)))
			verdict_set(v, ST_SKIPPED, xprintf("not for this target (a feature of %s; the objects are %s)",
			                                   f->arch, p->arch), 0);
		else if (off[i] || envoff[i])
			verdict_set(v, ST_DISABLED, xprintf("disabled by %s", off[i] ? "--disable" : "ASMCAP_DISABLE"), 0);
		else if (!(f->formats & (1u << fmt)))
			verdict_set(v, ST_SKIPPED, xprintf("not for %s objects", fmt == OBJ_ELF ? "ELF" : fmt == OBJ_COFF ? "COFF" : "Mach-O"), 0);
		else if (!engine_way_body(p, f))
			verdict_set(v, ST_SKIPPED, xprintf((!strcmp(p->way, "nasm") ? f->nasm_none : f->masm_none) ?
			                                   "%s has no syntax for it" : "the catalog has no %s form of it",
			                                   p->way), 0);
		else
			run[(*nrun)++] = i;
	}
	free(want);
	free(off);
	free(envoff);
	return r;
}

/* Features that cannot share a run get runs of their own: those whose
 * `section:` another feature in the run also names (the object could not
 * tell them apart), those whose body leaves the assembler changed
 * (`.arch', `.intel_syntax' unclosed, nasm's `bits 32': catalog.h's
 * state_line), and, where nothing undoes a directive (AArch64 and ARM
 * `.arch', arch.h), those that carry `enable:` directives: a directive
 * must not make another snippet pass, or fail; and an assembler-flag
 * question (`as-flag:'), whose flag would raise the level for the rest;
 * and an attribute's (`attribute:'), which is the whole object's. */
size_t plan_alone(struct ctx *x, size_t *run, size_t *n, size_t *alone)
{
	struct probe *p = x->p;
	const struct arch *a = arch_named(p->arch);
	int directives_leak = a && a->scope == ARCH_SCOPE_ALONE && !x->bare, nasm = !strcmp(p->way, "nasm"),
	    masm = !strcmp(p->way, "masm");
	size_t nalone = 0, k = 0;
	for (size_t i = 0; i < *n; i++) {
		const struct feature *f = &p->cat.f[run[i]];
		int shared = (directives_leak && f->nenable) || f->as_flag || f->attr_tag ||
		             (nasm ? f->nasm_state_line : masm ? f->masm_state_line : f->state_line);
		for (size_t j = 0; f->section && j < *n; j++)
			shared |= j != i && p->cat.f[run[j]].section && !strcmp(p->cat.f[run[j]].section, f->section);
		if (shared)
			alone[nalone++] = run[i];
		else
			run[k++] = run[i];
	}
	*n = k;
	return nalone;
}

enum obj_format plan_format_guess(const struct ctx *x)
{
	const char *fl = x->o->flavour;
	if (fl)
		return !strcmp(fl, "macosx") ? OBJ_MACHO :
		       !strcmp(fl, "mingw64") || !strcmp(fl, "nasm") || !strcmp(fl, "masm") ? OBJ_COFF : OBJ_ELF;
	if (!strcmp(x->p->way, "nasm") || !strcmp(x->p->way, "masm"))
		return OBJ_COFF;
#if defined(__APPLE__)
	return OBJ_MACHO;
#elif defined(_WIN32)
	return OBJ_COFF;
#else
	return OBJ_ELF;
#endif
}

enum obj_format plan_format_of(const char *name)
{
	return !strncmp(name, "coff", 4) ? OBJ_COFF : !strncmp(name, "macho", 5) ? OBJ_MACHO : OBJ_ELF;
}
