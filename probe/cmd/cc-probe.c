/* SPDX-License-Identifier: MIT */
/* asmcap cc-probe: what $CC $CFLAGS really does at C level.  Each probe
 * of the C-level catalog (ccat.h) is compiled with -c, as the build would
 * compile it: plainly (GNU inline asm, or an intrinsic under
 * __attribute__((target(...)))), and, where the probe has `mflags:', once
 * more under those -m flags.  An answer is yes only when the object holds
 * machine code for asmcap_probe and that code holds an instruction of the
 * feature `insn:' names, found by the architecture's decoder and the
 * feature's audit patterns, as `asmcap audit' finds it: an intrinsic the
 * compiler folded away or lowered to other instructions, a function
 * dropped, or LTO bitcode instead of machine code is never yes.
 *
 * Evidence follows the assembler probe's rule, retry.h: a failed compile
 * is `no' when the compiler's messages name the probe's source or the
 * flags under test; a failure naming neither (a launcher whose host is
 * down) is run again around control compiles and is `no' only when it
 * reproduces PROBE_TRIES times alike while the controls pass, else the
 * toolchain is unusable (exit 3); a `broken' answer is confirmed the same
 * way as a snippet's. */
#include "arch.h"
#include "words.h"
#include "cache.h"
#include "ccat.h"
#include "cc.h"
#include "cmds.h"
#include "file.h"
#include "obj.h"
#include "opt.h"
#include "out.h"
#include "engine.h"
#include "report.h"
#include "retry.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One answer: a probe compiled one way. */
struct answer {
	const struct cprobe *p;
	const struct arch *arch;        /* whose catalog it is from */
	int m;                          /* the `mflags:' answer (NAME-m) */
	char *name, *how;
	int want;
	enum status st;
	char *reason;
	double ms;
	struct retry_tries tries;       /* its failures that named nothing (retry.h) */
};

struct cp {
	struct cc_ctx cc;
	struct ccat cats[ARCH_MAX];     /* parallel to arch_all */
	struct answer *a; size_t n;
	const struct arch *target;      /* from the control's object (NULL: no module) */
	char arch[32], format[16];
	struct strv deps;               /* for the cache */
	struct retry trust;             /* how the compiler has behaved (retry.h) */
	int ask_driver, learn;          /* the next control also runs -### / reads the target */
	char **was;                     /* confirm_broken: each broken answer's first reason */
	unsigned jobs, seq;
};

struct copts {
	const char *cc, *cflags, *features, *output, *cache, *require;
	enum out_format fmt;
	unsigned jobs;
};

static const char cc_probe_text[] =
	"C-level probes: GNU inline asm and intrinsics (under target attributes and -m flags),\n"
	"each answer checked in the object's machine code.  Exit: 0 probed, 1 a --require'd\n"
	"probe is not yes, 2 usage or output, 3 the toolchain is unusable, 4 out of memory\n";

#define OPT_STRUCT struct copts
static const struct opt cc_probe_options[] = {
	CC_OPTIONS,
	OPT_TEXT("--features", "LIST", features, "probe these only (comma-separated)"),
	OPT_OUTPUT,
	OPT_CACHE,
	OPT_TIMEOUT("--timeout", "give up on a compiler run after SEC seconds"),
	OPT_COUNT("--jobs", "N", jobs, 1, 1024, "run N compiles at once"),
	OPT_TEXT("--require", "LIST", require, "exit 1 unless each of these probes is yes"),
	OPT_TABLE_END,
};
#undef OPT_STRUCT

/* ---- the answers ---- */

static void answer_set(struct answer *a, enum status st, char *reason, double ms)
{
	free(a->reason);
	a->st = st;
	a->reason = reason;
	a->ms = ms;
}

static int load(struct cp *c, char *err, size_t errlen)
{
	for (size_t k = 0; arch_all[k]; k++) {
		if (ccat_load(&c->cats[k], arch_all[k]->name, err, errlen))
			return -1;
		for (size_t i = 0; i < c->cats[k].n; i++)
			for (int m = 0; m < 1 + !!c->cats[k].p[i].mflags; m++) {
				const struct cprobe *p = &c->cats[k].p[i];
				struct answer *g = xrealloc(c->a, (c->n + 1) * sizeof *g);
				c->a = g;
				g = &c->a[c->n++];
				memset(g, 0, sizeof *g);
				g->p = p;
				g->arch = arch_all[k];
				g->m = m;
				g->name = m ? xprintf("%s-m", p->name) : xstrdup(p->name);
				g->how = m ? xstrdup(p->mflags) : p->target ? xprintf("target(\"%s\")", p->target) : xstrdup("CFLAGS");
				answer_set(g, ST_UNPROBED, xstrdup("not in --features"), 0);
			}
	}
	/* two answers must not share a variable (a-b and a_b, NAME-m and a probe NAME-m) */
	for (size_t i = 0; i < c->n; i++)
		for (size_t k = 0; k < i; k++) {
			char *x = out_var_name("ASMCAP_C_", c->a[i].name), *y = out_var_name("ASMCAP_C_", c->a[k].name);
			int same = !strcmp(x, y);
			if (same)
				snprintf(err, errlen, "%s: answer `%s' and %s's `%s' both become %s", c->a[i].p->path,
				         c->a[i].name, c->a[k].p->path, c->a[k].name, x);
			free(x);
			free(y);
			if (same)
				return -1;
		}
	return 0;
}

/* Mark the answers a list (comma or space separated) names; NULL: all.
 * -1 with err for an unknown name. */
static int mark(struct cp *c, const char *list, const char *what, int *set, char *err, size_t errlen)
{
	struct strv w = {0};
	char *copy = xstrdup(list ? list : ""), e[64];
	for (char *s = copy; *s; s++)
		if (*s == ',')
			*s = ' ';
	split_words(copy, &w, e, sizeof e);
	free(copy);
	int r = 0;
	for (size_t i = 0; list && i < w.n && !r; i++) {
		size_t k = 0;
		while (k < c->n && strcmp(c->a[k].name, w.v[i]))
			k++;
		if (k == c->n)
			r = -1, snprintf(err, errlen, "%s: unknown probe `%s' (`asmcap cc-probe' lists them all)", what, w.v[i]);
		else
			set[k] = 1;
	}
	for (size_t k = 0; !list && k < c->n; k++)
		set[k] = 1;
	if (!r && list && !w.n)
		r = -1, snprintf(err, errlen, "%s names no probe", what);
	strv_free(&w);
	return r;
}

/* ---- one compile ---- */

struct compile {
	struct answer *a;               /* NULL: the control */
	struct strv argv;
	char *src, *obj;
	struct run_job job;
};

/* The source of an answer: ASMCAP_TARGET for this way, then the body
 * with its line numbers as in the template (messages name the file). */
static char *source(const struct answer *a)
{
	const struct cprobe *p = a->p;
	char *attr = p->target && !a->m ? xprintf("__attribute__((target(\"%s\")))", p->target) : xstrdup("");
	/* defined only where used: -Wunused-macros */
	char *s = xprintf("%s%s%s#line %u \"%s\"\n%s", strstr(p->body, "ASMCAP_TARGET") ? "#define ASMCAP_TARGET " : "",
	                  attr, strstr(p->body, "ASMCAP_TARGET") ? "\n" : "", p->body_line, p->path, p->body);
	free(attr);
	return s;
}

/* Set up the compile of answer a (NULL: the control, with extra flags
 * `extra' when not NULL).  0, or 3 with err. */
static int unit_setup(struct cp *c, struct compile *u, struct answer *a, const char *extra, char *err, size_t errlen)
{
	struct strv fl = {0};
	memset(u, 0, sizeof *u);
	u->a = a;
	u->obj = xprintf("%s/cprobe%u.o", tmpdir_path(), c->seq);
	if (a) {
		char *text = source(a);
		u->src = xprintf("%s/cprobe%u.c", tmpdir_path(), c->seq);
		int bad = file_write(u->src, text);
		free(text);
		if (bad) {
			snprintf(err, errlen, "cannot write %s", u->src);
			return 3;
		}
	} else {
		const char *src = cc_probe_file(err, errlen);
		if (!src)
			return 3;
		u->src = xstrdup(src);
	}
	c->seq++;
	if ((a && a->m && split_words(a->p->mflags, &fl, err, errlen)) || (extra && split_words(extra, &fl, err, errlen))) {
		strv_free(&fl);
		return 3;
	}
	cc_argv(&c->cc, &fl, u->src, u->obj, &u->argv);
	strv_free(&fl);
	u->job.argv = u->argv.v;
	return 0;
}

static void unit_done(struct compile *u)
{
	strv_free(&u->argv);
	free(u->src);
	free(u->obj);
	run_result_free(&u->job.r);
}

/* The whole word w occurs in line[0..len). */
static int names_word(const char *line, size_t len, const char *w)
{
	size_t n = strlen(w);
	for (const char *s = line; n && s + n <= line + len; s++)
		if (!strncmp(s, w, n) && (s == line || !strchr("abcdefghijklmnopqrstuvwxyz0123456789-=_", s[-1])) &&
		    (s + n == line + len || !strchr("abcdefghijklmnopqrstuvwxyz0123456789-=_,", s[n])))
			return 1;
	return 0;
}

/* The first line of the compiler's messages that names the answer's
 * source (`path:LINE') or one of its -m flags and says one of kinds
 * (NULL-terminated; NULL: any line); NULL if none (malloc'd). */
static char *own_line(const struct answer *a, const char *text, const char *const *kinds)
{
	struct strv fl = {0};
	char e[64], *found = NULL, *at = xprintf("%s:", a->p->path);
	if (a->m)
		split_words(a->p->mflags, &fl, e, sizeof e);
	for (const char *l = text; *l && !found; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		size_t len = strcspn(l, "\n");
		const char *p = l;
		int ours = 0;
		while (!ours && (p = strstr(p, at)) && p < l + len)
			ours = p[strlen(at)] >= '0' && p[strlen(at)] <= '9', p++;
		for (size_t k = 0; k < fl.n && !ours; k++)
			ours = names_word(l, len, fl.v[k]);
		char *line = ours ? one_line(l, len) : NULL;
		for (const char *const *k = kinds; line && k && *k && !found; k++)
			if (strstr(line, *k))
				found = line;
		if (line && !kinds)
			found = line;
		else if (line != found)
			free(line);
	}
	free(at);
	strv_free(&fl);
	return found;
}

struct hits {
	const struct arch *arch; const struct feature *f; const void *pats; const uint8_t *data; unsigned n;
	const struct cprobe *p; uint64_t end; unsigned char *held;      /* holds: */
	int reloc;                                                      /* reloc: found */
};

static void count_hit(void *ctx, uint64_t off, const struct arch_insn *in, unsigned step)
{
	struct hits *h = ctx;
	(void)step;
	if (in && h->f && h->arch->audit_match(h->f, h->pats, in, h->data + off))
		h->n++;
	/* a holds: sequence starts at an instruction, never inside one */
	for (size_t i = 0; in && i < h->p->nholds; i++)
		for (size_t k = 0; k < h->p->holds[i].nalt; k++) {
			const struct ccat_seq *q = &h->p->holds[i].alt[k];
			size_t b = 0;
			while (b < q->n && off + b < h->end && (h->data[off + b] & q->m[b]) == q->v[b])
				b++;
			h->held[i] |= b == q->n;
		}
}

/* Walk the code of sym: h->n instructions of h->f (NULL: none counted),
 * h->held[i] for each `holds:' line found, h->reloc for a relocation
 * against `reloc:' in its bytes.  -1 when it has no code. */
static int walk_code(const struct obj *o, const struct obj_symbol *sym, struct hits *h)
{
	const struct obj_section *sec = &o->sections[sym->section];
	uint64_t end = obj_symbol_end(o, sym);
	struct code_span *spans = NULL;
	if (!sec->data || end > sec->size || end <= sym->value)
		return -1;
	long ns = code_spans(o, NULL, 0, sym->section, sym->thumb ? ARCH_MODE_THUMB : 0, &spans);
	if (ns < 0)
		return -1;
	h->data = sec->data;
	h->end = end;
	code_walk(h->arch, spans, (size_t)ns, sec->data, sym->value, end, count_hit, h);
	free(spans);
	for (size_t i = 0; h->p->reloc && i < o->nrelocs; i++) {
		const struct obj_reloc *r = &o->relocs[i];
		h->reloc |= r->section == sym->section && r->offset >= sym->value && r->offset < end &&
		            !strcmp(r->symbol, h->p->reloc);
	}
	return 0;
}

/* The evidence for answer a in the code of s (NULL: not defined) into h,
 * whose held[] has a slot per `holds:' line.  -1 when there is no code,
 * or the probe's insn: feature cannot be read. */
static int evidence(const struct answer *a, const struct obj *o, const struct obj_symbol *s, struct hits *h)
{
	struct catalog cat;
	char why[256];
	void *pats = NULL;
	int r = -1;
	if (!s || s->section < 0 || (size_t)s->section >= o->nsections)
		return -1;
	if (!a->p->insn)
		return walk_code(o, s, h);
	if (catalog_load_builtin(&cat, a->arch->name, why, sizeof why))
		return -1;
	const struct feature *f = catalog_find(&cat, a->p->insn);
	if (f && (!a->arch->audit_compile || !a->arch->audit_compile(f, &pats, why, sizeof why))) {
		h->f = f;
		h->pats = pats;
		r = walk_code(o, s, h);
	}
	if (a->arch->audit_free)
		a->arch->audit_free(pats);
	catalog_free(&cat);
	return r;
}

/* The verdict on the code: yes when it holds an instruction of insn: (if
 * given), every holds: line and the reloc: relocation (if given). */
static void judge(struct answer *a, const struct hits *h, double ms)
{
	const struct cprobe *p = a->p;
	size_t miss = 0;
	while (miss < p->nholds && h->held[miss])
		miss++;
	if (p->insn && !h->n)
		answer_set(a, ST_BROKEN, xprintf("compiled, but %s holds no %s instruction: the compiler emitted other code",
		                                 CCAT_FUNCTION, p->insn), ms);
	else if (p->reloc && !h->reloc)
		answer_set(a, ST_BROKEN, xprintf("compiled, but %s's code has no relocation against %s (reloc:; read from "
		                                 "ELF objects only)", CCAT_FUNCTION, p->reloc), ms);
	else if (miss < p->nholds)
		answer_set(a, ST_BROKEN, xprintf("compiled, but %s's code does not hold `%s' (holds:): the compiler "
		                                 "emitted other code", CCAT_FUNCTION, p->holds[miss].text), ms);
	else if (p->insn)
		answer_set(a, ST_YES, xprintf("%s holds %u %s instruction%s%s", CCAT_FUNCTION, h->n, p->insn,
		                              h->n > 1 ? "s" : "", p->nholds ? " and every holds: sequence" : ""), ms);
	else
		answer_set(a, ST_YES, xprintf("%s holds every holds: sequence (%zu)", CCAT_FUNCTION, p->nholds), ms);
}

/* The verdict on an object a compile wrote (exit 0): machine code for
 * asmcap_probe holding what the probe's `insn:' and `holds:' ask. */
static void verify(struct answer *a, const char *path, double ms)
{
	struct obj o;
	char why[256];
	size_t len = 0;
	uint8_t *buf = file_read(path, &len);
	if (!buf) {
		answer_set(a, ST_BROKEN, xprintf("the compiler exited 0 but wrote no object (%s)", file_error()), ms);
		return;
	}
	if (obj_is_bitcode(buf, len)) {
		answer_set(a, ST_SKIPPED, xstrdup("not machine code (LTO bitcode): cannot verify"), ms);
		free(buf);
		return;
	}
	if (obj_parse(&o, buf, len, why, sizeof why)) {
		answer_set(a, ST_BROKEN, xprintf("the compiler exited 0 but its output: %s", why), ms);
		free(buf);
		return;
	}
	struct hits h = {.arch = a->arch, .p = a->p, .held = xcalloc(a->p->nholds + 1, 1)};
	if (!evidence(a, &o, obj_symbol_named(&o, CCAT_FUNCTION), &h))
		judge(a, &h, ms);
	else if (obj_has_gimple(&o))
		answer_set(a, ST_SKIPPED, xstrdup("not machine code (LTO: GIMPLE in .gnu.lto_ sections): cannot verify"), ms);
	else
		answer_set(a, ST_BROKEN, xprintf("compiled, but the object has no code for %s", CCAT_FUNCTION), ms);
	free(h.held);
	obj_free(&o);
	free(buf);
}

/* ---- runs ---- */

/* The first control compiled: the target from its object (from a
 * machine-code build of the same file when the flags make LTO bitcode).
 * Ends u.  0, or 3 with err. */
static int control_target(struct cp *c, struct compile *u, char *err, size_t errlen)
{
	size_t len;
	uint8_t *buf = file_read(u->obj, &len);
	struct obj o;
	char why[256];
	int r = 0;
	if (buf && obj_is_bitcode(buf, len)) {
		unit_done(u);
		free(buf);
		if (unit_setup(c, u, NULL, "-fno-lto", err, errlen))
			return 3;
		run_jobs(&u->job, 1, 1);
		buf = u->job.r.exited && !u->job.r.status ? file_read(u->obj, &len) : NULL;
	}
	if (!buf || obj_parse(&o, buf, len, why, sizeof why)) {
		char *cmd = argv_brief(u->argv.v);
		snprintf(err, errlen, "`%s' exited 0 but wrote no object asmcap reads%s%s", cmd, buf ? ": " : "",
		         buf ? why : "");
		free(cmd);
		r = 3;
	} else {
		c->target = arch_of_obj(&o);
		char m[32];
		snprintf(c->arch, sizeof c->arch, "%s", arch_machine_name(&o, m, sizeof m));
		snprintf(c->format, sizeof c->format, "%s", obj_format_name(&o));
		obj_free(&o);
	}
	free(buf);
	unit_done(u);
	return r;
}

/* One control compile (a tiny clean C file with the build's flags,
 * retry_kind.control_once); the first also asks the driver what it runs
 * (-###, for the cache), and the first that passes learns the target
 * from its object.  0, or 3 with err. */
static int control_once(void *ctx, int *fatal, char *err, size_t errlen)
{
	struct cp *c = ctx;
	struct strv hash = {0};
	struct compile u;
	struct run_job jobs[2];
	int r = 0;
	*fatal = 1;
	if (unit_setup(c, &u, NULL, NULL, err, errlen))
		return 3;
	memset(jobs, 0, sizeof jobs);
	jobs[0] = u.job;
	if (c->ask_driver) {
		c->ask_driver = 0;
		strv_append(&hash, &u.argv);
		strv_push(&hash, "-###");
		jobs[1].argv = hash.v;
	}
	run_jobs(jobs, 1 + !!hash.n, 0);
	u.job = jobs[0];
	const struct run_result *rr = &u.job.r;
	if (hash.n) {
		for (const char *l = jobs[1].r.err; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
			int cc1as;
			free(driver_command(l, strcspn(l, "\n"), &c->deps, &cc1as));
		}
		run_result_free(&jobs[1].r);
		strv_free(&hash);
	}
	if (u.job.start_failed || rr->not_found || rr->timed_out) {
		if (u.job.start_failed && !rr->not_found)
			snprintf(err, errlen, "cannot run `%s': %s", u.argv.v[0], u.job.start_err);
		else
			run_describe(u.argv.v, rr, err, errlen);
		unit_done(&u);
		return 3;       /* not found, or a hang: another try costs the same */
	}
	if (!rr->exited || rr->status) {
		char *cmd = argv_brief(u.argv.v);
		size_t n;
		const char *line = cc_error_line(rr->err, &n);
		if (rr->exited)
			snprintf(err, errlen, "toolchain unusable: `%s' exited with status %d%s%.*s", cmd, rr->status,
			         n ? ": " : "", (int)n, line);
		else
			run_describe(u.argv.v, rr, err, errlen);
		free(cmd);
		*fatal = 0;
		r = 3;
	} else if (c->learn) {
		c->learn = 0;
		return control_target(c, &u, err, errlen);
	}
	unit_done(&u);
	return r;
}

/* The assembler's complaint about the compiler's own output, "FILE:N:
 * Error: ..." after "FILE: Assembler messages:", told without FILE: it is
 * the compiler's temporary (ccXXXXXX.s, a new name each run) or
 * "{standard input}" under -pipe, and only the words can reproduce alike.
 * 1 and what set, or 0 (no such message). */
static int assembler_words(const char *text, char *what, size_t n)
{
	static const char head[] = ": Assembler messages:";
	const char *h = strstr(text, head);
	if (!h)
		return 0;
	const char *file = h;
	while (file > text && file[-1] != '\n')
		file--;
	size_t flen = (size_t)(h - file);
	/* the first of FILE's lines that is an error, else the first of them */
	for (int any = 0; any < 2; any++)
		for (const char *l = h + strcspn(h, "\n"); *l; l += strcspn(l, "\n")) {
			l += *l == '\n';
			size_t len = strcspn(l, "\n");
			const char *err = strstr(l, "Error:");
			if (len > flen + 1 && !strncmp(l, file, flen) && l[flen] == ':' && (any || (err && err < l + len))) {
				size_t m = len - flen - 1;
				snprintf(what, n, "the assembler, on the compiler's output: line %.*s", (int)(m < 300 ? m : 300),
				         l + flen + 1);
				return 1;
			}
		}
	return 0;
}

/* A failure naming neither the source nor its flags, in words that are the
 * same each time it happens alike (the command names new files). */
static void failure_words(const struct run_result *rr, char *what, size_t n)
{
	size_t len;
	const char *e = cc_error_line(rr->err, &len);
	if (!rr->exited)
		snprintf(what, n, "the compiler was killed by %s", signal_name(rr->signal));
	else if (!assembler_words(rr->err, what, n))
		snprintf(what, n, "%.*s", (int)(len < 300 ? len : 300), len ? e : "exit status");
}

/* Compile answers todo[0..n) (indices of c->a, --jobs at a time) and
 * judge them; those that failed naming nothing are left in todo[0..*left)
 * (retry_kind.round).  0, or 3 with err. */
static int round_of(void *ctx, size_t *todo, size_t n, size_t *left, char *err, size_t errlen)
{
	struct cp *c = ctx;
	struct compile *u = xcalloc(n + 1, sizeof *u);
	struct run_job *jobs = xcalloc(n + 1, sizeof *jobs);
	size_t made = 0;
	int r = 0;
	*left = 0;
	for (; made < n && !r; made++)
		r = unit_setup(c, &u[made], &c->a[todo[made]], NULL, err, errlen);
	if (!r) {
		for (size_t i = 0; i < n; i++)
			jobs[i] = u[i].job;
		run_jobs(jobs, n, c->jobs);
		for (size_t i = 0; i < n; i++)
			u[i].job = jobs[i];
	}
	for (size_t i = 0; i < n && !r; i++) {
		struct answer *a = &c->a[todo[i]];
		const struct run_result *rr = &u[i].job.r;
		char *line;
		if (u[i].job.start_failed || rr->not_found || rr->timed_out) {
			if (u[i].job.start_failed && !rr->not_found)
				snprintf(err, errlen, "cannot run `%s': %s", u[i].argv.v[0], u[i].job.start_err);
			else
				run_describe(u[i].argv.v, rr, err, errlen);
			r = 3;
			break;
		}
		if (rr->exited && !rr->status) {
			retry_decided(&c->trust, &a->tries);
			if ((line = own_line(a, rr->err, (const char *const[]){"warning", "Warning:", NULL})))
				answer_set(a, ST_NO, xprintf("the compiler warned: %s", line), rr->ms);
			else
				verify(a, u[i].obj, rr->ms);
			free(line);
			continue;
		}
		if (rr->exited && (line = own_line(a, rr->err, NULL))) {
			/* its messages point into the probe or at its flags: a
			 * rejection, told by the first of them that is a diagnostic
			 * (gcc's always_inline error names the header, and only a
			 * note names the probe) */
			size_t len;
			const char *e = cc_error_line(rr->err, &len);
			free(line);
			line = own_line(a, rr->err, (const char *const[]){"error", "Error:", "warning", "Warning:", NULL});
			if (!line)
				line = one_line(e, len);
			answer_set(a, ST_NO, xprintf("rejected: %s", line), rr->ms);
			free(line);
			retry_decided(&c->trust, &a->tries);
			continue;
		}
		char what[512];
		failure_words(rr, what, sizeof what);
		char *why = xprintf("%s: %s", a->name, what);
		retry_failed(&c->trust, &a->tries, what, !rr->exited, why);
		free(why);
		answer_set(a, ST_NO, xprintf("rejected: %s", what), rr->ms);      /* if it settles so */
		todo[(*left)++] = todo[i];
	}
	for (size_t i = 0; i < made; i++)
		unit_done(&u[i]);
	free(u);
	free(jobs);
	return r;
}

static struct retry_tries *answer_tries(void *ctx, size_t i)
{
	return &((struct cp *)ctx)->a[i].tries;
}

/* Answer i compiled alone once more (retry_kind.again). */
static int again(void *ctx, size_t i, int *same, char *err, size_t errlen)
{
	struct cp *c = ctx;
	size_t one = i, left;
	int r = round_of(c, &one, 1, &left, err, errlen);
	*same = !r && c->a[i].st == ST_BROKEN && !strcmp(c->a[i].reason, c->was[i]);
	return r;
}

static void was_broken(void *ctx, size_t i, int changed, char *out, size_t len)
{
	const struct cp *c = ctx;
	const struct answer *a = &c->a[i];
	snprintf(out, len, "%s was broken (%s)%s%s%s%s", a->name, c->was[i], changed ? ", then " : "",
	         changed ? status_name(a->st) : "", changed ? ": " : "", changed ? a->reason : "");
}

/* Every wanted answer of the target's catalog, in rounds, then the
 * broken ones confirmed (retry.h).  0, or 3 with err. */
static int probe_all(struct cp *c, char *err, size_t errlen)
{
	struct retry_kind k = {c, control_once, round_of, answer_tries, again, was_broken};
	size_t *todo = xcalloc(c->n + 1, sizeof *todo), n = 0;
	c->ask_driver = c->learn = 1;
	int r = retry_control(&c->trust, &k, err, errlen);
	for (size_t i = 0; i < c->n && !r; i++) {
		struct answer *a = &c->a[i];
		if (!a->want)
			continue;
		if (a->arch != c->target)
			answer_set(a, ST_SKIPPED, xprintf("not for this target (a probe of %s; the objects are %s)",
			                                  a->arch->name, c->arch), 0);
		else
			todo[n++] = i;
	}
	if (!r && n)
		r = retry_rounds(&c->trust, &k, todo, n, err, errlen);
	c->was = xcalloc(c->n + 1, sizeof *c->was);
	for (size_t i = n = 0; i < c->n && !r; i++)
		if (c->a[i].want && c->a[i].st == ST_BROKEN) {
			c->was[i] = xstrdup(c->a[i].reason);
			todo[n++] = i;
		}
	if (!r)
		r = retry_confirm_broken(&c->trust, &k, todo, n, err, errlen);
	for (size_t i = 0; i < c->n; i++)
		free(c->was[i]);
	free(c->was);
	c->was = NULL;
	free(todo);
	return r;
}

/* ---- cache ---- */

static char *cache_key_of(const struct cp *c, const char *features)
{
	struct buf b = {0};
		const struct strv *parts[] = {&c->cc.cc, &c->cc.cflags};
	for (size_t p = 0; p < 2; p++) {
		buf_puts(&b, p ? "|" : "");
		for (size_t k = 0; k < parts[p]->n; k++)
			buf_printf(&b, "%s%s", k ? " " : "", parts[p]->v[k]);
	}
	buf_printf(&b, "|%s", features ? features : "*");
	for (size_t k = 0; arch_all[k]; k++) {
		/* verify() counts with the assembler catalog's `audit:' patterns,
		 * which ASMCAP_ADD_TEMPLATES may replace: its text is a key too */
		struct catalog cat;
		char e[512];
		int bad = catalog_load_builtin(&cat, arch_all[k]->name, e, sizeof e);
		buf_printf(&b, "|%s|%s", c->cats[k].hash, bad ? e : cat.hash);
		if (!bad)
			catalog_free(&cat);
	}
	buf_printf(&b, "|%s|%g", getenv("PATH") ? getenv("PATH") : "", run_default_timeout);
	return b.s;
}

/* Verdicts from a cached payload; 1 when it holds every answer, soundly. */
static int from_cache(struct cp *c, char *payload)
{
	size_t found = 0;
	int sound = 1;
	unsigned char *seen = xcalloc(c->n + 1, 1);     /* an answer twice is not an entry we wrote */
	for (char *l = payload; *l && sound;) {
		char *nl = strchr(l, '\n'), *f[6];
		*nl = 0;
		size_t nf = cache_fields(l, f, 6);
		if (nf == 3 && !strcmp(f[0], "target")) {
			snprintf(c->arch, sizeof c->arch, "%s", f[1]);
			snprintf(c->format, sizeof c->format, "%s", f[2]);
		} else {
			size_t k = 0;
			int st = -1;
			for (int s = ST_YES; s <= ST_UNPROBED; s++)
				if (nf == 5 && !strcmp(f[2], status_name((enum status)s)))
					st = s;
			while (k < c->n && nf == 5 && strcmp(c->a[k].name, f[1]))
				k++;
			sound = nf == 5 && !strcmp(f[0], "answer") && st >= 0 && k < c->n && !seen[k];
			if (sound) {
				seen[k] = 1;
				answer_set(&c->a[k], (enum status)st, xstrdup(f[4]), atof(f[3]));
				found++;
			}
		}
		l = nl + 1;
	}
	free(seen);
	return sound && found == c->n && c->arch[0];
}

static void to_cache(struct cp *c, const char *file, const char *key)
{
	struct buf b = {0};
	char ms[32];
	buf_puts(&b, "target");
	cache_field(&b, c->arch);
	cache_field(&b, c->format);
	buf_puts(&b, "\n");
	for (size_t k = 0; k < c->n; k++) {
		snprintf(ms, sizeof ms, "%.1f", c->a[k].ms);
		buf_puts(&b, "answer");
		cache_field(&b, c->a[k].name);
		cache_field(&b, status_name(c->a[k].st));
		cache_field(&b, ms);
		cache_field(&b, c->a[k].reason);
		buf_puts(&b, "\n");
	}
	deps_add_words(&c->deps, &c->cc.cc, 1);
	deps_add_words(&c->deps, &c->cc.cflags, 0);
	cache_store(file, "cc-probe", key, &c->cc.cc, &c->deps, b.s);
	buf_free(&b);
}

/* ---- output ---- */

static void write_json(struct buf *b, const struct cp *c)
{
	struct buf hash = {0};
	for (size_t k = 0; arch_all[k]; k++)
		buf_printf(&hash, "%s%s", k ? "," : "", c->cats[k].hash);
	buf_printf(b, "{\"schema\": 1, \"kind\": \"cc-probe\",\n \"asmcap\": {\"version\": \"%s\", \"catalog\": ",
	           asmcap_version());
	buf_json_str(b, hash.s);
	buf_puts(b, "},\n \"toolchain\": {\"argv\": ");
	buf_json_strs(b, c->cc.cc.v, c->cc.cc.n);
	buf_puts(b, ", \"cflags\": ");
	buf_json_strs(b, c->cc.cflags.v, c->cc.cflags.n);
	const struct json_member target[] = {{", ", "arch", c->arch}, {", ", "format", c->format}};
	buf_json_members(b, target, 2);
	buf_puts(b, "},\n \"features\": {");
	for (size_t i = 0; i < c->n; i++) {
		const struct answer *a = &c->a[i];
		buf_puts(b, i ? ",\n  " : "\n  ");
		buf_json_str(b, a->name);
		buf_printf(b, ": {\"status\": \"%s\"", status_name(a->st));
		const struct json_member m[] = {
			{", ", "reason", a->reason}, {", ", "how", a->how},
			{", ", "insn", a->p->insn}, {", ", "arch", a->arch->name},
		};
		buf_json_members(b, m, sizeof m / sizeof *m);
		buf_printf(b, ", \"ms\": %.1f}", a->ms);
	}
	buf_puts(b, "\n }\n}\n");
	buf_free(&hash);
}

static void write_text(struct buf *b, const struct cp *c)
{
	size_t w = 5, h = 3;
	for (size_t i = 0; i < c->n; i++) {
		if (strlen(c->a[i].name) > w)
			w = strlen(c->a[i].name);
		if (strlen(c->a[i].how) > h)
			h = strlen(c->a[i].how);
	}
	buf_puts(b, "compiler:  ");
	buf_text_words(b, c->cc.cc.v, c->cc.cc.n, "");
	buf_puts(b, "\ncflags:   ");
	buf_text_words(b, c->cc.cflags.v, c->cc.cflags.n, " ");
	buf_printf(b, "\ntarget:    %s, %s objects\n\n%-*s  %-8s  %-*s  %s\n", c->arch, c->format, (int)w, "probe",
	           "status", (int)h, "how", "reason");
	for (size_t i = 0; i < c->n; i++) {
		const struct answer *a = &c->a[i];
		buf_printf(b, "%-*s  %-8s  ", (int)w, a->name, status_name(a->st));
		buf_text(b, a->how);
		buf_printf(b, "%*s  ", (int)(h - strlen(a->how)), "");
		buf_text(b, a->reason);
		buf_puts(b, "\n");
	}
}

/* sh, make, h, perl, cmake: ASMCAP_C_<NAME> yes|no through out_vars
 * (unprobed has no value: never a false "no"). */
static void write_vars(struct buf *b, enum out_format f, const struct cp *c)
{
	struct out_var *v = xcalloc(c->n + 1, sizeof *v);
	char **own = xcalloc(2 * c->n + 1, sizeof *own);
	for (size_t i = 0; i < c->n; i++) {
		const struct answer *a = &c->a[i];
		own[2 * i] = out_var_name("ASMCAP_C_", a->name);
		own[2 * i + 1] = xprintf("%s%s%s", status_name(a->st), *a->reason ? ": " : "", a->reason);
		v[i] = (struct out_var){own[2 * i], a->st == ST_UNPROBED ? NULL : a->st == ST_YES ? "yes" : "no",
		                        own[2 * i + 1], 0};
	}
	struct buf who = {0};
	buf_puts(&who, "asmcap cc-probe --cc");
	for (size_t i = 0; i < c->cc.cc.n; i++)
		buf_printf(&who, " %s", c->cc.cc.v[i]);
	out_vars(b, f, who.s, v, c->n);
	buf_free(&who);
	for (size_t i = 0; i < 2 * c->n; i++)
		free(own[i]);
	free(own);
	free(v);
}

/* The compiler, the catalog and the answers wanted (--features) or
 * required (req, c->n entries): 0, or the exit code with err set. */
static int cc_probe_setup(struct cp *c, const struct copts *o, int **req, char *err, size_t errlen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	c->jobs = o->jobs ? o->jobs : ncpu > 0 ? (unsigned)ncpu : 1;
	if (cc_init(&c->cc, o->cc, o->cflags, err, errlen))
		return 2;
	if (load(c, err, errlen))
		return 3;       /* the built-in catalog is wrong: asmcap itself is broken */
	int *want = xcalloc(c->n + 1, sizeof *want), r = 0;
	*req = xcalloc(c->n + 1, sizeof **req);
	if (mark(c, o->features, "--features", want, err, errlen) ||
	    (o->require && mark(c, o->require, "--require", *req, err, errlen)))
		r = 2;
	for (size_t k = 0; k < c->n; k++)
		c->a[k].want = want[k] || (*req)[k];
	free(want);
	return r;
}

/* The answers in the chosen format (-o or stdout), then --require: 0, 1
 * (a required answer is not yes) or 2 (the output could not be written). */
static int cc_probe_report(const struct cp *c, const struct copts *o, const int *req)
{
	struct buf b = {0};
	if (o->fmt == OUT_JSON)
		write_json(&b, c);
	else if (o->fmt == OUT_TEXT)
		write_text(&b, c);
	else
		write_vars(&b, o->fmt, c);
	int r = file_output("asmcap cc-probe", o->output, &b);
	buf_free(&b);
	for (size_t k = 0; !r && k < c->n; k++)
		if (req[k] && c->a[k].st != ST_YES) {
			struct buf why = {0};
			buf_text(&why, c->a[k].reason);
			fprintf(stderr, "asmcap cc-probe: required probe %s is %s: %s\n", c->a[k].name,
			        status_name(c->a[k].st), why.s ? why.s : "");
			buf_free(&why);
		}
	for (size_t k = 0; !r && k < c->n; k++)
		r = req[k] && c->a[k].st != ST_YES;
	return r;
}

static void cc_probe_free(struct cp *c)
{
	for (size_t k = 0; k < c->n; k++) {
		free(c->a[k].name);
		free(c->a[k].how);
		free(c->a[k].reason);
		retry_tries_free(&c->a[k].tries);
	}
	free(c->a);
	for (size_t k = 0; arch_all[k]; k++)
		ccat_free(&c->cats[k]);
	strv_free(&c->deps);
	cc_free(&c->cc);
}

static int cc_probe_main(void *cmd, const struct opts *s)
{
	const struct copts *o = cmd;
	struct cp c;
	char err[1024];
	int *req = NULL, cached = 0;
	(void)s;
	memset(&c, 0, sizeof c);
	int r = cc_probe_setup(&c, o, &req, err, sizeof err);
	char *key = !r && o->cache ? cache_key_of(&c, o->features) : NULL, *payload = NULL;
	if (key && (payload = cache_lookup(o->cache, "cc-probe", key, &c.cc.cc)))
		cached = from_cache(&c, payload);
	if (!r && !cached && !(r = probe_all(&c, err, sizeof err)) && key)
		to_cache(&c, o->cache, key);
	if (r)
		fprintf(stderr, "asmcap cc-probe: %s\n", err);
	else
		r = cc_probe_report(&c, o, req);
	if (getenv("ASMCAP_STATS"))
		fprintf(stderr, "asmcap: stats: processes=%u cached=%d\n", run_nprocs, cached);
	cc_probe_free(&c);
	free(req);
	free(key);
	free(payload);
	return r;
}

const struct command cmd_cc_probe = {
	"cc-probe", {"asmcap cc-probe", "asmcap cc-probe", NULL, cc_probe_text, cc_probe_options, 0, 0, NULL, NULL},
	sizeof(struct copts), NULL, cc_probe_main,
};
