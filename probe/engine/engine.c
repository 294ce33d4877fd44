/* SPDX-License-Identifier: MIT */
/* The probe engine.  The whole catalog goes through the assembler in one
 * run, each snippet between two labels (asmcap_b_N / asmcap_e_N) so its
 * bytes can be found in the object.  When the run fails, the assembler's
 * `file:LINE:` messages name the snippets it rejected; one more run without
 * them settles the rest.  Only a failure that names no line falls back to
 * one run per feature, in parallel (runs.c), retried by retry.h's rule.
 * This file is the flow: plan, batch, singles, confirmation, the further
 * `enable:' spellings, the no-directive answer, the blame on the flags. */
#include "engine.h"
#include "arch.h"
#include "cache.h"
#include "asmrun.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *engine_way_body(const struct probe *p, const struct feature *f)
{
	if (!strcmp(p->way, "nasm"))
		return f->nasm_none ? NULL : f->nasm_body;
	return !strcmp(p->way, "masm") ? catalog_masm_body(f) : f->body;
}

const char *engine_status_name(enum status s)
{
	static const char *const n[] = {"yes", "no", "broken", "skipped", "disabled", "unprobed"};
	return n[s];
}

static int usage_err(char *err, size_t errlen, const char *fmt, const char *a)
{
	snprintf(err, errlen, fmt, a);
	return 2;
}

/* The second answer for features with `enable:` directives: the snippet
 * without them, i.e. what the build's own flags (-march) enable.  Its
 * verdicts go to p->vf; plain snippets share one run (nothing in them can
 * reach another). */
static int probe_flags(struct ctx *x, char *err, size_t errlen)
{
	struct probe *p = x->p;
	size_t *run = xcalloc(p->cat.n + 1, sizeof *run), *alone = xcalloc(p->cat.n + 1, sizeof *alone);
	size_t n = 0, left = 0, nalone;
	enum outcome out = OUTCOME_OK;
	int r = 0;
	for (size_t i = 0; i < p->cat.n; i++) {
		const struct verdict *v = &p->v[i];
		if (!p->cat.f[i].nenable)
			continue;
		if (v->st == ST_SKIPPED || v->st == ST_DISABLED || v->st == ST_UNPROBED)
			verdict_set(&p->vf[i], v->st, xstrdup(v->reason), 0);
		else
			run[n++] = i;
	}
	struct verdict *with = p->v;
	p->v = p->vf;           /* the runner writes p->v */
	x->bare = 1;
	nalone = plan_alone(x, run, &n, alone);
	if (n)
		r = probe_batch(x, run, n, &left, NULL, &out, 0, err, errlen);
	left = n && out != OUTCOME_OK ? probe_drop_rejected(p, run, left) : 0;
	memcpy(run + left, alone, nalone * sizeof *alone);
	if (!r && left + nalone)
		r = probe_singly(x, run, left + nalone, err, errlen);
	if (!r)
		r = probe_confirm_broken(x, err, errlen);
	x->bare = 0;
	p->v = with;
	free(run);
	free(alone);
	return r;
}

/* probe_spellings tries each feature's further `enable:' spellings, in
 * order, while the ones before gave no bytes: an assembler may accept a
 * directive and ignore it (clang-14 takes `.arch armv8.2-a+dotprod' and
 * still rejects sdot), so no spelling decides by itself.  Each try runs
 * alone: a directive must not reach another snippet.  A yes names its
 * spelling; a later spelling's broken stops the search and stays, to be
 * confirmed (*fresh counts them); where every later one is rejected the
 * first spelling's verdict stays.  Runs after probe_confirm_broken, so a first
 * spelling's broken is already the toolchain's, not a flaky run's.  0, or
 * 3 with err. */
static int probe_spellings(struct ctx *x, size_t *fresh, char *err, size_t errlen)
{
	struct probe *p = x->p;
	size_t n = p->cat.n, *run = xcalloc(n + 1, sizeof *run);
	struct verdict *first = xcalloc(n + 1, sizeof *first);
	int r = 0;
	*fresh = 0;
	for (unsigned k = 1; !r; k++) {
		size_t nrun = 0;
		for (size_t i = 0; i < n; i++) {
			struct verdict *v = &p->v[i];
			if (p->cat.f[i].nenable <= k || v->spelling != k - 1 ||
			    (v->st != ST_NO && !(k == 1 && v->st == ST_BROKEN)))
				continue;
			if (k == 1) {
				first[i] = *v;
				memset(v, 0, sizeof *v);
			} else
				verdict_clear(v);
			v->spelling = k;
			run[nrun++] = i;
		}
		if (!nrun)
			break;
		r = probe_singly(x, run, nrun, err, errlen);
	}
	for (size_t i = 0; i < n; i++) {
		struct verdict *v = &p->v[i];
		if (!first[i].reason)
			continue;
		if (!r && v->st == ST_YES) {
			free(v->reason);
			v->reason = xprintf("enabled by `%s' (not by `%s': %s)", p->cat.f[i].enable[v->spelling],
			                    p->cat.f[i].enable[0], first[i].reason);
			verdict_clear(&first[i]);
		} else if (!r && v->st == ST_BROKEN) {
			verdict_clear(&first[i]);
			(*fresh)++;
		} else {
			verdict_clear(v);
			*v = first[i];
		}
	}
	free(first);
	free(run);
	return r;
}

/* name_assembler sets p->assembler from what the driver ran: the
 * external assembler's --version, or the compiler's own name for an
 * integrated one (unless a --version run already named it). */
static void name_assembler(struct ctx *x)
{
	struct probe *p = x->p;
	if (x->as_prog && !x->integrated && !p->assembler) {
		struct strv av = {0};
		struct run_result rr;
		char e[256];
		strv_push(&av, x->as_prog);
		strv_push(&av, "--version");
		if (!run_cmd(av.v, NULL, 0, &rr, e, sizeof e) && rr.exited && rr.status == 0)
			p->assembler = asmrun_first_line(rr.out);
		run_result_free(&rr);
		strv_free(&av);
	} else if (x->integrated && p->identity)
		p->assembler = xprintf("integrated assembler of %s", p->identity);
}

static int probe_catalog(struct ctx *x, char *err, size_t errlen)
{
	struct probe *p = x->p;
	/* The plan starts from asmcap's own architecture; the first object
	 * says what the target really is.  A machine without a module has
	 * no catalog to start from: the object of an empty plan names the
	 * target (another architecture's plan would assemble a catalog the
	 * toolchain cannot know). */
	char guess[sizeof p->arch], loaded[sizeof p->arch] = "";
	const struct arch *host = arch_host();
	snprintf(guess, sizeof guess, "%s", host ? host->name : "");
	if (!host && run_log)
		fprintf(run_log, "# this machine has no architecture module: an empty plan's object names the target\n");
	enum obj_format fmt = plan_format_guess(x);
	int r = 0, first = 1;
	x->verbose = !x->o->exact;

	for (int attempt = 0; attempt < 3 && !r; attempt++) {
		/* Another attempt on the same arch keeps the verdicts it has:
		 * the same toolchain gave them, only the plan was for another
		 * object format. */
		if ((!attempt || strcmp(loaded, guess)) && (r = probe_load_catalog(p, x->o, guess, err, errlen)))
			break;
		snprintf(loaded, sizeof loaded, "%s", guess);
		size_t *run = xcalloc(p->cat.n + 1, sizeof *run), *alone = xcalloc(p->cat.n + 1, sizeof *alone);
		size_t nrun, nalone = 0, left = 0, fresh;
		enum outcome out = OUTCOME_OK;
		if (!(r = plan_runs(x, fmt, run, &nrun, err, errlen))) {
			nrun = probe_undecided(p, run, nrun);
			nalone = plan_alone(x, run, &nrun, alone);
			if (nrun || first)
				r = probe_batch(x, run, nrun, &left, NULL, &out, first, err, errlen);
			first = 0;
		}
		/* Nothing to blame by line: is the toolchain usable at all? */
		if (!r && out != OUTCOME_OK)
			r = probe_control(x, err, errlen);
		if (!r && (strcmp(p->arch, guess) || plan_format_of(p->format) != fmt)) {
			/* The object says another target than the plan assumed. */
			snprintf(guess, sizeof guess, "%s", p->arch);
			fmt = plan_format_of(p->format);
			free(run);
			free(alone);
			continue;
		}
		if (!r && !probe_attributed(out)) {
			/* The same snippets once more before one run each: a
			 * failure that names nothing may not happen again. */
			left = probe_drop_rejected(p, run, left);
			enum outcome again;
			r = probe_batch(x, run, left, &left, &again, &out, 0, err, errlen);
			x->trust.flaky |= probe_attributed(again);
		}
		if (!r && out != OUTCOME_OK) {
			/* what the batch left, and what needs a run alone */
			left = probe_drop_rejected(p, run, left);
			memcpy(run + left, alone, nalone * sizeof *alone);
			nalone += left;
			memcpy(alone, run, nalone * sizeof *alone);
		}
		if (!r && nalone)
			r = probe_singly(x, alone, nalone, err, errlen);
		if (!r)
			r = probe_confirm_broken(x, err, errlen);
		if (!r)
			r = probe_spellings(x, &fresh, err, errlen);
		if (!r && fresh)        /* a later spelling's broken needs its evidence too */
			r = probe_confirm_broken(x, err, errlen);
		if (!r)
			r = probe_flags(x, err, errlen);
		free(run);
		free(alone);
		break;
	}
	if (!r)
		name_assembler(x);
	free(x->as_prog);
	return r;
}

/* Features the build's flags made the toolchain reject: one more run of
 * just those without --cflags/--asflags.  Where that run says yes for the
 * same target, the advice blames the flags, not the assembler.  The
 * verdicts stay those of the build's command. */
static int blame_flags(struct ctx *x, char *err, size_t errlen)
{
	struct probe *p = x->p;
	size_t n = 0, left;
	if (!x->cflags.n && !x->asflags.n)
		return 0;
	size_t *idx = xcalloc(p->cat.n + 1, sizeof *idx), *run = xcalloc(p->cat.n + 1, sizeof *run);
	/* an as-flag feature's flag would join the batch (asmrun.c) */
	for (size_t i = 0; i < p->cat.n; i++)
		if (p->v[i].st == ST_NO && !p->cat.f[i].as_flag)
			idx[n++] = i;
	struct verdict *saved = xcalloc(n + 1, sizeof *saved);
	struct strv cf = x->cflags, af = x->asflags;
	struct build_info build = p->build;
	char arch[sizeof p->arch], format[sizeof p->format], flavour[sizeof p->flavour];
	memcpy(arch, p->arch, sizeof arch);
	memcpy(format, p->format, sizeof format);
	memcpy(flavour, p->flavour, sizeof flavour);
	for (size_t k = 0; k < n; k++) {
		saved[k] = p->v[idx[k]];
		memset(&p->v[idx[k]], 0, sizeof p->v[idx[k]]);
		run[k] = idx[k];
	}
	x->cflags = x->asflags = (struct strv){0};
	enum outcome out = OUTCOME_OK;
	int r = n ? probe_batch(x, run, n, &left, NULL, &out, 0, err, errlen) : 0;
	x->cflags = cf;
	x->asflags = af;
	int same = !strcmp(arch, p->arch) && !strcmp(format, p->format);
	for (size_t k = 0; k < n; k++) {
		struct verdict *v = &p->v[idx[k]];
		int yes = same && v->reason && v->st == ST_YES;
		verdict_clear(v);
		*v = saved[k];
		v->flags_blamed = yes;
	}
	p->build = build;
	memcpy(p->arch, arch, sizeof arch);
	memcpy(p->format, format, sizeof format);
	memcpy(p->flavour, flavour, sizeof flavour);
	free(saved);
	free(run);
	free(idx);
	return r;
}

int probe_run(struct probe *p, const struct probe_opts *o, char *err, size_t errlen)
{
	struct ctx x;
	char e[256];
	memset(p, 0, sizeof *p);
	memset(&x, 0, sizeof x);
	x.p = p;
	x.o = o;
	p->way = o->way;
	p->mode = o->mode ? o->mode : 'S';
	p->cflags = xstrdup(o->cflags);
	p->asflags = xstrdup(o->asflags);
	if (o->flavour)
		snprintf(p->flavour, sizeof p->flavour, "%s", o->flavour);
	if (argv_split_words(o->cmd, &p->argv, e, sizeof e))
		return usage_err(err, errlen, "the command: %s", e);
	if (!p->argv.n)
		return usage_err(err, errlen, "--%s: empty command", o->way);
	if (argv_split_words(o->cflags ? o->cflags : "", &x.cflags, e, sizeof e) ||
	    argv_split_words(o->asflags ? o->asflags : "", &x.asflags, e, sizeof e)) {
		strv_free(&x.cflags);
		strv_free(&x.asflags);
		return usage_err(err, errlen, "flags: %s", e);
	}
	const char *fl = o->flavour ? o->flavour : "nasm";
	x.nasm_fmt = !strcmp(fl, "elf") ? "elf64" : !strcmp(fl, "macosx") ? "macho64" : "win64";
	p->path = driver_path_lookup(p->argv.v[0]);
	deps_add_words(&p->deps, &p->argv, 1);
	deps_add_words(&p->deps, &x.cflags, 0);
	deps_add_words(&p->deps, &x.asflags, 0);
	if (!p->path) {
		char *cmd = argv_brief(p->argv.v);
		snprintf(err, errlen, "`%s': %s not found or not executable", cmd, p->argv.v[0]);
		free(cmd);
		strv_free(&x.cflags);
		strv_free(&x.asflags);
		return 3;
	}
	x.dir = tmpdir_path();
	int r = x.dir ? probe_catalog(&x, err, errlen) : (snprintf(err, errlen, "no temp dir"), 3);
	if (!r && !o->exact)
		r = blame_flags(&x, err, errlen);
	strv_free(&x.cflags);
	strv_free(&x.asflags);
	if (!r && !p->identity)
		p->identity = xstrdup(p->assembler ? p->assembler : "");
	if (!r && !p->assembler)
		p->assembler = xstrdup("");
	return r;
}

void probe_free(struct probe *p)
{
	verdicts_free(p);
	catalog_free(&p->cat);
	strv_free(&p->argv);
	strv_free(&p->deps);
	free(p->path); free(p->identity); free(p->assembler); free(p->cflags); free(p->asflags);
	memset(p, 0, sizeof *p);
}
