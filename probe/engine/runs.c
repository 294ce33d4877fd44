/* SPDX-License-Identifier: MIT */
/* The assembler probe's runs: one batch of snippets (again without the
 * ones it rejected by line), the empty-file control, and runs of one
 * snippet each, retried and confirmed by the one rule of retry.h. */
#include "asmrun.h"
#include "retry.h"
#include "xalloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The flag of clang's -Wunused-command-line-argument error, in either of
 * its forms: "argument unused during compilation: '-D FOO'" and
 * "-Wl,-z,now: 'linker' input unused".  1 with flag set, or 0. */
static int unused_flag(const char *err, char *flag, size_t len)
{
	const char *l = strstr(err, "-Wunused-command-line-argument");
	if (!l)
		return 0;
	while (l > err && l[-1] != '\n')
		l--;
	const char *a = strstr(l, "argument unused during compilation: '"), *e = strstr(l, "error: ");
	if (a) {
		a += strlen("argument unused during compilation: '");
		snprintf(flag, len, "%.*s", (int)strcspn(a, "'\n"), a);
	} else if (e) {
		e += strlen("error: ");
		const char *end = strstr(e, ": '");
		snprintf(flag, len, "%.*s", (int)(end ? end - e : (ptrdiff_t)strcspn(e, "\n")), e);
	} else
		return 0;
	return 1;
}

int probe_attributed(enum outcome out)
{
	return out == OUTCOME_OK || out == OUTCOME_FAILED;
}

/* The driver's -v output, read only from a run the driver really made (a
 * launcher that failed before it printed nothing true); otherwise the next
 * run asks again. */
static void driver_output(struct ctx *x, const struct asm_run *u, int ran)
{
	if (u->verbose && ran) {
		free(x->as_prog);
		x->as_prog = driver_parse(x->p, u->job.r.err, &x->integrated);
	} else if (u->verbose)
		x->verbose = 1;
}

static enum outcome eval(struct ctx *x, struct asm_run *u, struct obj *o, uint8_t **objbuf,
                         char *err, size_t errlen)
{
	enum outcome out = asm_run_eval(x, u, o, objbuf, err, errlen);
	driver_output(x, u, probe_attributed(out));
	return out;
}

/* One empty-source run: can the toolchain assemble anything at all?  Also
 * what the target is when the catalog run failed.  0, or 3 with err;
 * *fatal when another run cannot help. */
static int empty_run(struct ctx *x, int *fatal, char *err, size_t errlen)
{
	struct asm_run u;
	int r = asmrun_prepare(x, &u, NULL, 0, err, errlen);
	*fatal = r != 0;
	if (!r) {
		run_jobs(&u.job, 1, 1);
		x->p->nruns++;
		const struct run_result *rr = &u.job.r;
		enum outcome end = asmrun_end(&u, err, errlen);
		if (end != OUTCOME_OK) {
			*fatal = end == OUTCOME_UNUSABLE;
			r = 3;
		} else if (rr->status) {
			char *cmd = argv_brief(u.argv.v), *msg = asmrun_complaint(&u);
			char flag[256];
			if (unused_flag(rr->err, flag, sizeof flag)) {
				snprintf(err, errlen, "`%s' cannot assemble an empty file: the compiler calls the flag %s unused here%s",
				         cmd, flag, asmrun_want_cpp(x) ? "; pass assembler flags with --asflags and leave out the rest"
				         : " (in --mode s no preprocessor runs); pass assembler flags with --asflags, or use --mode S");
				*fatal = 1;
			} else
				snprintf(err, errlen, "`%s' cannot assemble an empty file (exit %d): %s", cmd, rr->status, msg);
			free(cmd);
			free(msg);
			r = 3;
		} else {
			uint8_t *buf;
			struct obj o;
			if (asmrun_load_obj(&u, &buf, &o, err, errlen))
				r = 3;
			else {
				asmrun_learn_target(x, &o);
				obj_free(&o);
				free(buf);
			}
		}
		driver_output(x, &u, !r);
	}
	asm_run_free(&u);
	return r;
}

/* ---- the assembler probe as a kind of retry.h ---- */

/* Runs of single features: the state retry.h keeps for each, and the
 * broken evidence probe_confirm_broken compares with (by catalog index). */
struct singles {
	struct ctx *x;
	struct retry_tries *tries;
	struct evidence { int have; size_t n; uint8_t *got; char *reason; } *seen;
	char *cmd;              /* the command of the rerun that answered otherwise */
};

/* One unit per feature of todo[0..n), run --jobs at a time; *prepared
 * units to free, whatever happens.  0, or 3 with err. */
static int run_units(struct ctx *x, struct asm_run *u, const size_t *todo, size_t n, size_t *prepared,
                     char *err, size_t errlen)
{
	int r = 0;
	for (*prepared = 0; *prepared < n && !r; (*prepared)++)
		r = asmrun_prepare(x, &u[*prepared], &todo[*prepared], 1, err, errlen);
	if (r)
		return r;
	struct run_job *jobs = xcalloc(n, sizeof *jobs);
	for (size_t i = 0; i < n; i++)
		jobs[i] = u[i].job;
	run_jobs(jobs, n, x->o->jobs);
	x->p->nruns += n;
	for (size_t i = 0; i < n; i++)
		u[i].job = jobs[i];
	free(jobs);
	return 0;
}

/* One round of single runs (retry_kind.round): a run that fails naming its
 * snippet decides `no'; one that fails naming nothing is recorded, its
 * verdict the `no' it would settle as. */
static int singles_round(void *ctx, size_t *todo, size_t n, size_t *left, char *err, size_t errlen)
{
	struct singles *s = ctx;
	struct ctx *x = s->x;
	struct asm_run *u = xcalloc(n + 1, sizeof *u);
	size_t prepared;
	int r = run_units(x, u, todo, n, &prepared, err, errlen);
	*left = 0;
	for (size_t i = 0; i < n && !r; i++) {
		size_t fi = todo[i];
		struct obj o;
		uint8_t *buf = NULL;
		char e[1024];
		enum outcome out = eval(x, &u[i], &o, &buf, e, sizeof e);
		if (out == OUTCOME_UNUSABLE) {
			snprintf(err, errlen, "%s", e);
			r = 3;
			break;
		}
		if (out == OUTCOME_OK) {
			obj_free(&o);
			free(buf);
		}
		if (probe_attributed(out)) {
			retry_decided(&x->trust, &s->tries[fi]);
			continue;
		}
		char *msg = out == OUTCOME_NOLINES ? asmrun_complaint(&u[i]) : xstrdup("");
		retry_failed(&x->trust, &s->tries[fi], msg, out != OUTCOME_NOLINES, e);
		evidence_record_failure(x, fi, &u[i], msg);
		free(msg);
		todo[(*left)++] = fi;
	}
	for (size_t i = 0; i < prepared; i++)
		asm_run_free(&u[i]);
	free(u);
	return r;
}

static int singles_control(void *ctx, int *fatal, char *err, size_t errlen)
{
	return empty_run(((struct singles *)ctx)->x, fatal, err, errlen);
}

static struct retry_tries *singles_tries(void *ctx, size_t i)
{
	return &((struct singles *)ctx)->tries[i];
}

/* same_evidence: v is broken with the bytes e saw.  No bytes is one
 * answer whether the labels were found or not: yasm takes `endbr64' for a
 * label, and its object holds an empty .text between the labels when
 * other snippets share the run but no code section at all alone. */
static int same_evidence(const struct evidence *e, const struct verdict *v)
{
	return v->st == ST_BROKEN && v->ngot == e->n &&
	       (!e->n || (v->have_got == e->have && !memcmp(v->got, e->got, e->n)));
}

/* Feature fi's snippet alone once more (retry_kind.again). */
static int singles_again(void *ctx, size_t fi, int *same, char *err, size_t errlen)
{
	struct singles *s = ctx;
	struct asm_run u;
	struct obj o;
	uint8_t *buf = NULL;
	int r = asmrun_prepare(s->x, &u, &fi, 1, err, errlen);
	if (r)
		return r;
	run_jobs(&u.job, 1, 1);
	s->x->p->nruns++;
	enum outcome out = eval(s->x, &u, &o, &buf, err, errlen);
	if (out == OUTCOME_OK) {
		obj_free(&o);
		free(buf);
	}
	*same = out == OUTCOME_OK && same_evidence(&s->seen[fi], &s->x->p->v[fi]);
	if (!*same && !s->cmd)
		s->cmd = argv_brief(u.argv.v);
	asm_run_free(&u);
	return out == OUTCOME_UNUSABLE ? 3 : 0;
}

static void singles_was_broken(void *ctx, size_t fi, int changed, char *out, size_t len)
{
	struct singles *s = ctx;
	const struct verdict *v = &s->x->p->v[fi];
	snprintf(out, len, "%s%s%s%s was broken (%s)%s%s%s%s", s->cmd ? "`" : "", s->cmd ? s->cmd : "",
	         s->cmd ? "': " : "", s->x->p->cat.f[fi].name, s->seen[fi].reason, changed ? ", then " : "",
	         changed ? engine_status_name(v->st) : "", changed && *v->reason ? ": " : "", changed ? v->reason : "");
}

static void singles_init(struct singles *s, struct retry_kind *k, struct ctx *x)
{
	size_t n = x->p->cat.n;
	*s = (struct singles){x, xcalloc(n + 1, sizeof *s->tries), xcalloc(n + 1, sizeof *s->seen), NULL};
	*k = (struct retry_kind){s, singles_control, singles_round, singles_tries, singles_again, singles_was_broken};
}

static void singles_free(struct singles *s)
{
	for (size_t i = 0; i < s->x->p->cat.n; i++) {
		retry_tries_free(&s->tries[i]);
		free(s->seen[i].got);
		free(s->seen[i].reason);
	}
	free(s->tries);
	free(s->seen);
	free(s->cmd);
}

int probe_control(struct ctx *x, char *err, size_t errlen)
{
	struct singles s = {x, NULL, NULL, NULL};
	struct retry_kind k = {&s, singles_control, NULL, NULL, NULL, NULL};
	return retry_control(&x->trust, &k, err, errlen);
}

int probe_singly(struct ctx *x, const size_t *f, size_t n, char *err, size_t errlen)
{
	struct singles s;
	struct retry_kind k;
	size_t *todo = xcalloc(n + 1, sizeof *todo);
	memcpy(todo, f, n * sizeof *f);
	singles_init(&s, &k, x);
	int r = retry_rounds(&x->trust, &k, todo, n, err, errlen);
	singles_free(&s);
	free(todo);
	return r;
}

int probe_confirm_broken(struct ctx *x, char *err, size_t errlen)
{
	struct probe *p = x->p;
	struct singles s;
	struct retry_kind k;
	size_t n = 0, *todo = xcalloc(p->cat.n + 1, sizeof *todo);
	singles_init(&s, &k, x);
	for (size_t i = 0; i < p->cat.n; i++) {
		const struct verdict *v = &p->v[i];
		if (v->st != ST_BROKEN)
			continue;
		s.seen[i] = (struct evidence){v->have_got, v->ngot, xmalloc(v->ngot + 1), xstrdup(v->reason)};
		if (v->ngot)
			memcpy(s.seen[i].got, v->got, v->ngot);
		todo[n++] = i;
	}
	int r = retry_confirm_broken(&x->trust, &k, todo, n, err, errlen);
	singles_free(&s);
	free(todo);
	return r;
}

/* The first catalog run goes out together with the queries that need no
 * result of it: with --cc the run itself has -v (identity, the programs the
 * driver runs, `as -v'), and in --mode s, where no preprocessor sees the
 * source, `-dM -E' runs beside it; --as and --nasm get `--version', --masm
 * `/?' (ml64's banner names it; it has no --version). */
static void run_first(struct ctx *x, struct asm_run *u)
{
	struct probe *p = x->p;
	struct strv aux = {0};
	struct run_job jobs[2];
	int cc = !strcmp(p->way, "cc"), naux = !cc || !asmrun_want_cpp(x);
	char e[256];
	memset(jobs, 0, sizeof jobs);
	strv_append(&aux, &p->argv);
	if (cc) {
		strv_append(&aux, &x->cflags);
		const char *d[] = {"-dM", "-E", "-x", "c", "/dev/null", NULL};
		for (const char **s = d; *s; s++)
			strv_push(&aux, *s);
	} else
		strv_push(&aux, strcmp(p->way, "masm") ? "--version" : "/?");
	jobs[0] = u->job;
	jobs[1].argv = aux.v;
	run_jobs(jobs, 1 + naux, 0);
	u->job = jobs[0];
	int ok = naux && jobs[1].r.exited && jobs[1].r.status == 0;
	if (cc) {
		if (ok)
			driver_parse_defines(&p->build, jobs[1].r.out);
		else if (naux && asmrun_end(u, e, sizeof e) == OUTCOME_OK) {
			char *cmd = argv_brief(aux.v), *msg = asmrun_first_line(jobs[1].r.err);
			fprintf(stderr, "asmcap: warning: `%s' failed (%s): the build section stays unknown\n", cmd, msg);
			free(cmd);
			free(msg);
		}
	} else if (ok)
		p->assembler = asmrun_first_line(jobs[1].r.out[0] ? jobs[1].r.out : jobs[1].r.err);
	if (naux)
		run_result_free(&jobs[1].r);
	strv_free(&aux);
}

/* Keep the features of run[0..n) that no run has rejected; the new count. */
size_t probe_drop_rejected(const struct probe *p, size_t *run, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (p->v[run[i]].st != ST_NO)
			run[k++] = run[i];
	return k;
}

/* Keep the features of run[0..n) that no run has decided yet (a skip
 * there comes from an earlier plan for another object format). */
size_t probe_undecided(const struct probe *p, size_t *run, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct verdict *v = &p->v[run[i]];
		if (!v->reason || v->st == ST_SKIPPED || v->st == ST_DISABLED)
			run[k++] = run[i];
	}
	return k;
}

/* run[0..n) in one run; while the assembler rejects snippets by line, once
 * more without them (a few times at most).  *out: how the last run went,
 * *first_out (unless NULL) the first; *left: the features of run[] the
 * last had.  0, or 3 with err. */
int probe_batch(struct ctx *x, size_t *run, size_t n, size_t *left, enum outcome *first_out,
                     enum outcome *out, int first, char *err, size_t errlen)
{
	struct asm_run u;
	struct obj o;
	uint8_t *buf = NULL;
	int r = asmrun_prepare(x, &u, run, n, err, errlen);
	*left = n;
	if (r)
		return r;
	if (first)
		run_first(x, &u);
	else
		run_jobs(&u.job, 1, 1);
	x->p->nruns++;
	*out = eval(x, &u, &o, &buf, err, errlen);
	if (first_out)
		*first_out = *out;
	for (int again = 0; *out == OUTCOME_FAILED && again < 4; again++) {
		*left = probe_drop_rejected(x->p, run, *left);
		asm_run_free(&u);
		if ((r = asmrun_prepare(x, &u, run, *left, err, errlen)))
			return r;
		run_jobs(&u.job, 1, 1);
		x->p->nruns++;
		*out = eval(x, &u, &o, &buf, err, errlen);
	}
	if (*out == OUTCOME_OK) {
		obj_free(&o);
		free(buf);
	}
	asm_run_free(&u);
	return *out == OUTCOME_UNUSABLE ? 3 : 0;
}
