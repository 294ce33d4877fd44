/* SPDX-License-Identifier: MIT */
/* The probe engine.  The whole catalog goes through the assembler in one
 * run, each snippet between two labels (asmcap_b_N / asmcap_e_N) so its
 * bytes can be found in the object.  When the run fails, the assembler's
 * `file:LINE:` messages name the snippets it rejected; one more run without
 * them settles the rest.  Only a failure that names no line falls back to
 * one run per feature, in parallel. */
#include "engine.h"
#include "arch.h"
#include "cache.h"
#include "asmrun.h"
#include "xalloc.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *way_body(const struct probe *p, const struct feature *f)
{
	if (!strcmp(p->way, "nasm"))
		return f->nasm_none ? NULL : f->nasm_body;
	return !strcmp(p->way, "masm") ? masm_body_of(f) : f->body;
}

const char *status_name(enum status s)
{
	static const char *const n[] = {"yes", "no", "broken", "skipped", "disabled", "unprobed"};
	return n[s];
}

char *path_lookup(const char *name)
{
	struct stat st;
	if (strchr(name, '/'))
		return stat(name, &st) || !S_ISREG(st.st_mode) || access(name, X_OK) ? NULL : xstrdup(name);
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		char full[4096];
		snprintf(full, sizeof full, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", name);
		if (!stat(full, &st) && S_ISREG(st.st_mode) && !access(full, X_OK))
			return xstrdup(full);
		path += n + (path[n] == ':');
	}
	return NULL;
}

int feature_list(const struct catalog *c, const char *list, unsigned char *want,
                 const char *what, char *err, size_t errlen)
{
	struct strv w = {0};
	char e[64];
	char *copy = xstrdup(list);
	for (char *p = copy; *p; p++)
		if (*p == ',')
			*p = ' ';
	split_words(copy, &w, e, sizeof e);
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
static void verdict_clear(struct verdict *v)
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

static void verdicts_free(struct probe *p)
{
	verdict_array_free(&p->v, p->cat.n);
	verdict_array_free(&p->vf, p->cat.n);
}

/* ---- identity, build section, dependencies ---- */

void build_macro_set(struct build_info *b, const char *name, long value)
{
	for (size_t i = 0; i < b->nmacro; i++)
		if (!strcmp(b->macro[i].name, name)) {
			b->macro[i].value = value;
			return;
		}
	if (b->nmacro < BUILD_MAX_MACROS)
		b->macro[b->nmacro++] = (struct build_macro){name, value};
}

long build_fact(const struct build_info *b, const struct arch_fact *f)
{
	for (size_t i = 0; i < b->nmacro; i++)
		if (!strcmp(b->macro[i].name, f->macro))
			return f->kind == ARCH_FACT_NUMBER ? b->macro[i].value
			       : f->kind == ARCH_FACT_DEFINED || (b->macro[i].value & f->mask);
	return 0;
}

/* `-dM -E` output (in --mode s, where no preprocessor sees the source;
 * the target is not known yet, so every module's macros count). */
static void parse_defines(struct build_info *b, const char *text)
{
	memset(b, 0, sizeof *b);
	b->known = 1;
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		char name[64];
		long val = 1;
		const char *mod;
		if (sscanf(l, "#define %63s %ld", name, &val) < 1)
			continue;
		if ((mod = arch_build_macro_named(name)))
			build_macro_set(b, mod, val);
	}
}

char *driver_command(const char *l, size_t len, struct strv *deps, int *cc1as)
{
	struct strv w = {0};
	char e[64], *full = xmalloc(len + 1), *prog = NULL, *word0 = NULL;
	memcpy(full, l, len);
	full[len] = 0;
	*cc1as = 0;
	/* clang reads its configuration files (--config, and the default
	 * ones) before anything else; they can change every verdict */
	if (!strncmp(full, "Configuration file: ", 20))
		deps_add_file(deps, full + 20);
	/* command lines start with a space and name a program */
	if ((full[0] == ' ' || full[0] == '\t') && !split_words(full, &w, e, sizeof e) && w.n &&
	    (prog = path_lookup(w.v[0]))) {
		deps_add_program(deps, prog);
		for (size_t i = 1; i < w.n; i++)
			*cc1as |= !strcmp(w.v[i], "-cc1as");
		word0 = xstrdup(w.v[0]);
	}
	free(prog);
	free(full);
	strv_free(&w);
	return word0;
}

/* From the first run's `-v' output: the driver's identity line, the
 * programs it runs (deps), whether the assembler is integrated (-cc1as),
 * and an external assembler's own version line (as -v prints it).
 * Returns the external assembler's program, or NULL. */
static char *parse_driver(struct probe *p, const char *text, int *integrated)
{
	char *as = NULL, *as_version = NULL;
	*integrated = 0;
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		size_t len = strcspn(l, "\n");
		char *line = one_line(l, len < 4000 ? len : 4000);
		if (line[0] != ' ' && strstr(line, " version ")) {
			if (!p->identity)
				p->identity = xstrdup(line);
			else if (as && !as_version)
				as_version = xstrdup(line);     /* what the last program printed */
		}
		int cc1as;
		char *cmd = driver_command(l, len, &p->deps, &cc1as);
		if (cmd) {
			free(as);
			free(as_version);
			as_version = NULL;
			as = cc1as ? NULL : cmd;
			if (cc1as)
				free(cmd);
			*integrated = cc1as;
		}
		free(line);
	}
	if (as && as_version && !p->assembler)
		p->assembler = as_version;
	else
		free(as_version);
	return as;
}

/* ---- the whole probe ---- */

static int usage_err(char *err, size_t errlen, const char *fmt, const char *a)
{
	snprintf(err, errlen, fmt, a);
	return 2;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct feature *)a)->name, ((const struct feature *)b)->name);
}

/* Move the features named in w from the other architectures' catalogs
 * into p's, with what they require (named in w too); 1 when any moved. */
static int move_foreign(struct probe *p, const struct probe_opts *o, struct strv *w)
{
	int moved = 0;
	for (const struct arch *const *a = arch_all; *a; a++) {
		struct catalog other;
		char err[256];
		if (!strcmp((*a)->name, p->arch) || catalog_load(&other, o->templates, (*a)->name, err, sizeof err))
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
	split_words(copy, &w, e, sizeof e);
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
	snprintf(sub, sizeof sub, "%s/%s", o->templates ? o->templates : "", arch);
	if (arch_named(arch) && (!o->templates || !stat(sub, &st)) &&
	    catalog_load(&p->cat, o->templates, arch, err, errlen))
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
static int plan(struct ctx *x, enum obj_format fmt, size_t *run, size_t *nrun, char *err, size_t errlen)
{
	struct probe *p = x->p;
	size_t n = p->cat.n;
	unsigned char *want = xcalloc(n + 1, 1), *off = xcalloc(n + 1, 1), *envoff = xcalloc(n + 1, 1);
	int r = 0;
	if (x->o->features) {
		if (feature_list(&p->cat, x->o->features, want, "--features", err, errlen))
			r = 2;
		/* what they require is probed too: "adx" alone could not be usable */
		want_required(&p->cat, want);
	} else
		memset(want, 1, n);
	if (!r && x->o->disable && feature_list(&p->cat, x->o->disable, off, "--disable", err, errlen))
		r = 2;
	const char *env = getenv("ASMCAP_DISABLE");
	if (!r && env && feature_list(&p->cat, env, envoff, "ASMCAP_DISABLE", err, errlen))
		r = 2;
	*nrun = 0;
	for (size_t i = 0; !r && i < n; i++) {
		const struct feature *f = &p->cat.f[i];
		struct verdict *v = &p->v[i];
		if (!want[i])
			set_verdict(v, ST_UNPROBED, xstrdup("not in --features"), 0);
		else if (strcmp(f->arch, p->arch))
			set_verdict(v, ST_SKIPPED, xprintf("not for this target (a feature of %s; the objects are %s)",
			                                   f->arch, p->arch), 0);
		else if (off[i] || envoff[i])
			set_verdict(v, ST_DISABLED, xprintf("disabled by %s", off[i] ? "--disable" : "ASMCAP_DISABLE"), 0);
		else if (!(f->formats & (1u << fmt)))
			set_verdict(v, ST_SKIPPED, xprintf("not for %s objects", fmt == OBJ_ELF ? "ELF" : fmt == OBJ_COFF ? "COFF" : "Mach-O"), 0);
		else if (!way_body(p, f))
			set_verdict(v, ST_SKIPPED, xprintf((!strcmp(p->way, "nasm") ? f->nasm_none : f->masm_none) ?
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
static size_t split_shared_sections(struct ctx *x, size_t *run, size_t *n, size_t *alone)
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

static enum obj_format format_guess(const struct ctx *x)
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

static enum obj_format format_of(const char *name)
{
	return !strncmp(name, "coff", 4) ? OBJ_COFF : !strncmp(name, "macho", 5) ? OBJ_MACHO : OBJ_ELF;
}

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


static int attributed(enum outcome out)
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
		x->as_prog = parse_driver(x->p, u->job.r.err, &x->integrated);
	} else if (u->verbose)
		x->verbose = 1;
}

static enum outcome eval(struct ctx *x, struct asm_run *u, struct obj *o, uint8_t **objbuf,
                         char *err, size_t errlen)
{
	enum outcome out = asm_run_eval(x, u, o, objbuf, err, errlen);
	driver_output(x, u, attributed(out));
	return out;
}

/* One empty-source run: can the toolchain assemble anything at all?  Also
 * what the target is when the catalog run failed.  0, or 3 with err;
 * *fatal when another run cannot help. */
static int empty_run(struct ctx *x, int *fatal, char *err, size_t errlen)
{
	struct asm_run u;
	int r = prepare(x, &u, NULL, 0, err, errlen);
	*fatal = r != 0;
	if (!r) {
		run_jobs(&u.job, 1, 1);
		x->p->nruns++;
		const struct run_result *rr = &u.job.r;
		enum outcome end = run_end(&u, err, errlen);
		if (end != OUTCOME_OK) {
			*fatal = end == OUTCOME_UNUSABLE;
			r = 3;
		} else if (rr->status) {
			char *cmd = argv_brief(u.argv.v), *msg = complaint(&u);
			char flag[256];
			if (unused_flag(rr->err, flag, sizeof flag)) {
				snprintf(err, errlen, "`%s' cannot assemble an empty file: the compiler calls the flag %s unused here%s",
				         cmd, flag, want_cpp(x) ? "; pass assembler flags with --asflags and leave out the rest"
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
			if (load_obj(&u, &buf, &o, err, errlen))
				r = 3;
			else {
				learn_target(x, &o);
				obj_free(&o);
				free(buf);
			}
		}
		driver_output(x, &u, !r);
	}
	asm_run_free(&u);
	return r;
}

/* The control: the empty source, up to PROBE_TRIES runs until one passes.  A
 * control that passed once and fails later (or the other way round) shows
 * an intermittent toolchain.  0, or 3 with err. */
static int control(struct ctx *x, char *err, size_t errlen)
{
	int r = 3, fatal = 0;
	for (int t = 0; t < PROBE_TRIES && r && !fatal; t++) {
		r = empty_run(x, &fatal, err, errlen);
		if (r && !fatal && x->control_ok)
			x->flaky = 1;
		x->control_failed |= r && !fatal;
	}
	if (!r) {
		x->flaky |= x->control_failed;
		x->control_ok = 1;
	}
	return r;
}

/* One unit per feature of todo[0..n), run --jobs at a time; *prepared
 * units to free, whatever happens.  0, or 3 with err. */
static int run_units(struct ctx *x, struct asm_run *u, const size_t *todo, size_t n, size_t *prepared,
                     char *err, size_t errlen)
{
	int r = 0;
	for (*prepared = 0; *prepared < n && !r; (*prepared)++)
		r = prepare(x, &u[*prepared], &todo[*prepared], 1, err, errlen);
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

/* One run per feature, --jobs at a time.  A run that fails naming its
 * snippet decides `no'.  One that fails naming nothing runs again after a
 * control run, PROBE_TRIES runs in all: it decides `no' only when every run
 * failed with the same complaint, every control between passed, and no
 * input of this toolchain has given two different answers; else the
 * toolchain is unusable.  0, or 3 with err. */
static int run_singly(struct ctx *x, const size_t *f, size_t n, char *err, size_t errlen)
{
	size_t ncat = x->p->cat.n, *todo = xcalloc(n + 1, sizeof *todo);
	unsigned *fails = xcalloc(ncat + 1, sizeof *fails);
	char **said = xcalloc(ncat + 1, sizeof *said);          /* the last complaint */
	char **why = xcalloc(ncat + 1, sizeof *why);            /* the last failure, for exit 3 */
	int r = 0;
	memcpy(todo, f, n * sizeof *f);
	for (int round = 0; !r && n; round++) {
		if (round && (r = control(x, err, errlen)))
			break;
		struct asm_run *u = xcalloc(n + 1, sizeof *u);
		size_t prepared;
		r = run_units(x, u, todo, n, &prepared, err, errlen);
		size_t left = 0;
		int settled = 1;        /* every failure reproduced, nameless */
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
			if (attributed(out)) {
				x->flaky |= fails[fi] > 0;     /* failed before, not now */
				continue;
			}
			char *msg = out == OUTCOME_NOLINES ? complaint(&u[i]) : xstrdup("");
			if (fails[fi] && strcmp(said[fi], msg))
				x->flaky = 1;
			settled &= out == OUTCOME_NOLINES && fails[fi] > 0 && !strcmp(said[fi], msg);
			free(said[fi]);
			free(why[fi]);
			said[fi] = msg;
			why[fi] = xstrdup(e);
			fails[fi]++;
			todo[left++] = fi;
		}
		if (!r && left && round + 1 >= PROBE_TRIES && settled && !x->flaky) {
			/* reproduced around passing controls: rejections */
			for (size_t i = 0, k = 0; i < n; i++)
				if (k < left && u[i].f[0] == todo[k])
					record_failure(x, todo[k++], &u[i], said[u[i].f[0]]);
			left = 0;
		}
		if (!r && left && round + 1 >= PROBE_TRIES) {
			snprintf(err, errlen, "%.*s (tried %d times%s)", (int)(errlen > 100 ? errlen - 100 : 0),
			         why[todo[0]], PROBE_TRIES, x->flaky ? "; this toolchain fails intermittently" : "");
			r = 3;
		}
		for (size_t i = 0; i < prepared; i++)
			asm_run_free(&u[i]);
		free(u);
		n = left;
	}
	for (size_t i = 0; i < ncat; i++)
		free(said[i]), free(why[i]);
	free(said);
	free(why);
	free(fails);
	free(todo);
	return r;
}

/* The evidence of a `broken' verdict: the bytes found (or that none were). */
struct evidence { int have; size_t n; uint8_t *got; char *reason; };

/* same_evidence: v is broken with the bytes e saw.  No bytes is one
 * answer whether the labels were found or not: yasm takes `endbr64' for a
 * label, and its object holds an empty .text between the labels when
 * other snippets share the run but no code section at all alone. */
static int same_evidence(const struct evidence *e, const struct verdict *v)
{
	return v->st == ST_BROKEN && v->ngot == e->n &&
	       (!e->n || (v->have_got == e->have && !memcmp(v->got, e->got, e->n)));
}

/* One more run of each of todo[0..n), alone, after a passing control;
 * *differs: the first (as todo index) whose answer is not the evidence
 * seen[], or n.  0, or 3 with err. */
static int rerun_alone(struct ctx *x, const size_t *todo, size_t n, const struct evidence *seen,
                       size_t *differs, char **cmd, char *err, size_t errlen)
{
	struct asm_run *u = xcalloc(n + 1, sizeof *u);
	size_t prepared = 0;
	int r = control(x, err, errlen);
	if (!r)
		r = run_units(x, u, todo, n, &prepared, err, errlen);
	for (size_t k = 0; k < n && !r; k++) {
		struct obj o;
		uint8_t *buf = NULL;
		enum outcome out = eval(x, &u[k], &o, &buf, err, errlen);
		if (out == OUTCOME_UNUSABLE)
			r = 3;
		if (out == OUTCOME_OK) {
			obj_free(&o);
			free(buf);
		}
		if (!r && *differs == n && !(out == OUTCOME_OK && same_evidence(&seen[k], &x->p->v[todo[k]]))) {
			*differs = k;
			*cmd = argv_brief(u[k].argv.v);
		}
	}
	for (size_t k = 0; k < prepared; k++)
		asm_run_free(&u[k]);
	free(u);
	return r;
}

/* A `broken' verdict needs the evidence a `no' does: the snippet's own
 * run gives the same wrong bytes again, PROBE_TRIES runs in all, each
 * after a passing control, and no input of this toolchain has given two
 * different answers (a wrapper that drops .text from some objects makes
 * any snippet look broken once).  Else the toolchain is unreliable and
 * nothing is cached: 3 with err.  Works on p->v (probe_flags swaps in
 * p->vf). */
static int confirm_broken(struct ctx *x, char *err, size_t errlen)
{
	struct probe *p = x->p;
	size_t n = 0, *todo = xcalloc(p->cat.n + 1, sizeof *todo), differs;
	struct evidence *seen = xcalloc(p->cat.n + 1, sizeof *seen);
	char *cmd = NULL;
	int r = 0;
	for (size_t i = 0; i < p->cat.n; i++) {
		const struct verdict *v = &p->v[i];
		if (v->st != ST_BROKEN)
			continue;
		seen[n] = (struct evidence){v->have_got, v->ngot, xmalloc(v->ngot + 1), xstrdup(v->reason)};
		if (v->ngot)
			memcpy(seen[n].got, v->got, v->ngot);
		todo[n++] = i;
	}
	differs = n;
	for (int round = 1; !r && n && differs == n && round < PROBE_TRIES; round++)
		r = rerun_alone(x, todo, n, seen, &differs, &cmd, err, errlen);
	if (!r && n && (differs < n || x->flaky)) {
		size_t k = differs < n ? differs : 0;
		const struct verdict *v = &p->v[todo[k]];
		char *now = differs < n ? xprintf("%s%s%s", status_name(v->st), *v->reason ? ": " : "", v->reason) : NULL;
		snprintf(err, errlen, "%s%s%s%s was broken (%s)%s%s: this toolchain fails intermittently",
		         cmd ? "`" : "", cmd ? cmd : "", cmd ? "': " : "", p->cat.f[todo[k]].name,
		         seen[k].reason, now ? ", then " : "", now ? now : "");
		free(now);
		r = 3;
	}
	for (size_t k = 0; k < n; k++)
		free(seen[k].got), free(seen[k].reason);
	free(seen);
	free(todo);
	free(cmd);
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
	int cc = !strcmp(p->way, "cc"), naux = !cc || !want_cpp(x);
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
			parse_defines(&p->build, jobs[1].r.out);
		else if (naux && run_end(u, e, sizeof e) == OUTCOME_OK) {
			char *cmd = argv_brief(aux.v), *msg = first_line(jobs[1].r.err);
			fprintf(stderr, "asmcap: warning: `%s' failed (%s): the build section stays unknown\n", cmd, msg);
			free(cmd);
			free(msg);
		}
	} else if (ok)
		p->assembler = first_line(jobs[1].r.out[0] ? jobs[1].r.out : jobs[1].r.err);
	if (naux)
		run_result_free(&jobs[1].r);
	strv_free(&aux);
}

/* Keep the features of run[0..n) that no run has rejected; the new count. */
static size_t drop_rejected(const struct probe *p, size_t *run, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (p->v[run[i]].st != ST_NO)
			run[k++] = run[i];
	return k;
}

/* Keep the features of run[0..n) that no run has decided yet (a skip
 * there comes from an earlier plan for another object format). */
static size_t undecided(const struct probe *p, size_t *run, size_t n)
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
static int run_batch(struct ctx *x, size_t *run, size_t n, size_t *left, enum outcome *first_out,
                     enum outcome *out, int first, char *err, size_t errlen)
{
	struct asm_run u;
	struct obj o;
	uint8_t *buf = NULL;
	int r = prepare(x, &u, run, n, err, errlen);
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
		*left = drop_rejected(x->p, run, *left);
		asm_run_free(&u);
		if ((r = prepare(x, &u, run, *left, err, errlen)))
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
			set_verdict(&p->vf[i], v->st, xstrdup(v->reason), 0);
		else
			run[n++] = i;
	}
	struct verdict *with = p->v;
	p->v = p->vf;           /* the runner writes p->v */
	x->bare = 1;
	nalone = split_shared_sections(x, run, &n, alone);
	if (n)
		r = run_batch(x, run, n, &left, NULL, &out, 0, err, errlen);
	left = n && out != OUTCOME_OK ? drop_rejected(p, run, left) : 0;
	memcpy(run + left, alone, nalone * sizeof *alone);
	if (!r && left + nalone)
		r = run_singly(x, run, left + nalone, err, errlen);
	if (!r)
		r = confirm_broken(x, err, errlen);
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
 * first spelling's verdict stays.  Runs after confirm_broken, so a first
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
		r = run_singly(x, run, nrun, err, errlen);
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
			p->assembler = first_line(rr.out);
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
	enum obj_format fmt = format_guess(x);
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
		if (!(r = plan(x, fmt, run, &nrun, err, errlen))) {
			nrun = undecided(p, run, nrun);
			nalone = split_shared_sections(x, run, &nrun, alone);
			if (nrun || first)
				r = run_batch(x, run, nrun, &left, NULL, &out, first, err, errlen);
			first = 0;
		}
		/* Nothing to blame by line: is the toolchain usable at all? */
		if (!r && out != OUTCOME_OK)
			r = control(x, err, errlen);
		if (!r && (strcmp(p->arch, guess) || format_of(p->format) != fmt)) {
			/* The object says another target than the plan assumed. */
			snprintf(guess, sizeof guess, "%s", p->arch);
			fmt = format_of(p->format);
			free(run);
			free(alone);
			continue;
		}
		if (!r && !attributed(out)) {
			/* The same snippets once more before one run each: a
			 * failure that names nothing may not happen again. */
			left = drop_rejected(p, run, left);
			enum outcome again;
			r = run_batch(x, run, left, &left, &again, &out, 0, err, errlen);
			x->flaky |= attributed(again);
		}
		if (!r && out != OUTCOME_OK) {
			/* what the batch left, and what needs a run alone */
			left = drop_rejected(p, run, left);
			memcpy(run + left, alone, nalone * sizeof *alone);
			nalone += left;
			memcpy(alone, run, nalone * sizeof *alone);
		}
		if (!r && nalone)
			r = run_singly(x, alone, nalone, err, errlen);
		if (!r)
			r = confirm_broken(x, err, errlen);
		if (!r)
			r = probe_spellings(x, &fresh, err, errlen);
		if (!r && fresh)        /* a later spelling's broken needs its evidence too */
			r = confirm_broken(x, err, errlen);
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
	int r = n ? run_batch(x, run, n, &left, NULL, &out, 0, err, errlen) : 0;
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
	if (split_words(o->cmd, &p->argv, e, sizeof e))
		return usage_err(err, errlen, "the command: %s", e);
	if (!p->argv.n)
		return usage_err(err, errlen, "--%s: empty command", o->way);
	if (split_words(o->cflags ? o->cflags : "", &x.cflags, e, sizeof e) ||
	    split_words(o->asflags ? o->asflags : "", &x.asflags, e, sizeof e)) {
		strv_free(&x.cflags);
		strv_free(&x.asflags);
		return usage_err(err, errlen, "flags: %s", e);
	}
	const char *fl = o->flavour ? o->flavour : "nasm";
	x.nasm_fmt = !strcmp(fl, "elf") ? "elf64" : !strcmp(fl, "macosx") ? "macho64" : "win64";
	p->path = path_lookup(p->argv.v[0]);
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
