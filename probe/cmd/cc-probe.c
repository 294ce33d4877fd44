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
#include "cc-probe.h"
#include "cache.h"
#include "cmds.h"
#include "file.h"
#include "opt.h"
#include "report.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

void cc_probe_answer_set(struct answer *a, enum status st, char *reason, double ms)
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
				cc_probe_answer_set(g, ST_UNPROBED, xstrdup("not in --features"), 0);
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
	argv_split_words(copy, &w, e, sizeof e);
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
				if (nf == 5 && !strcmp(f[2], engine_status_name((enum status)s)))
					st = s;
			while (k < c->n && nf == 5 && strcmp(c->a[k].name, f[1]))
				k++;
			sound = nf == 5 && !strcmp(f[0], "answer") && st >= 0 && k < c->n && !seen[k];
			if (sound) {
				seen[k] = 1;
				cc_probe_answer_set(&c->a[k], (enum status)st, xstrdup(f[4]), atof(f[3]));
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
		cache_field(&b, engine_status_name(c->a[k].st));
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

/* cc-probe's rows (report_rows.ctx): the shared writers' JSON and text. */
struct cp_rows {
	const struct cp *c;
	size_t how;             /* the text table's `how' column width */
};

static const char *cp_name(void *ctx, size_t i)
{
	return ((struct cp_rows *)ctx)->c->a[i].name;
}

static enum status cp_status(void *ctx, size_t i)
{
	return ((struct cp_rows *)ctx)->c->a[i].st;
}

static void cp_json_head(struct buf *b, void *ctx)
{
	const struct cp *c = ((struct cp_rows *)ctx)->c;
	buf_puts(b, "\"argv\": ");
	buf_json_strs(b, c->cc.cc.v, c->cc.cc.n);
	buf_puts(b, ", \"cflags\": ");
	buf_json_strs(b, c->cc.cflags.v, c->cc.cflags.n);
	const struct json_member target[] = {{", ", "arch", c->arch}, {", ", "format", c->format}};
	buf_json_members(b, target, 2);
}

static void cp_json_row(struct buf *b, void *ctx, size_t i)
{
	const struct answer *a = &((struct cp_rows *)ctx)->c->a[i];
	const struct json_member m[] = {
		{", ", "reason", a->reason}, {", ", "how", a->how},
		{", ", "insn", a->p->insn}, {", ", "arch", a->arch->name},
	};
	buf_json_members(b, m, sizeof m / sizeof *m);
	buf_printf(b, ", \"ms\": %.1f", a->ms);
}

static void cp_text_head(struct buf *b, void *ctx)
{
	const struct cp *c = ((struct cp_rows *)ctx)->c;
	buf_puts(b, "compiler:  ");
	buf_text_words(b, c->cc.cc.v, c->cc.cc.n, "");
	buf_puts(b, "\ncflags:   ");
	buf_text_words(b, c->cc.cflags.v, c->cc.cflags.n, " ");
	buf_printf(b, "\ntarget:    %s, %s objects\n", c->arch, c->format);
}

static void cp_text_titles(struct buf *b, void *ctx)
{
	buf_printf(b, "%-*s  ", (int)((struct cp_rows *)ctx)->how, "how");
}

static void cp_text_row(struct buf *b, void *ctx, size_t i, int colour)
{
	const struct cp_rows *r = ctx;
	const struct answer *a = &r->c->a[i];
	(void)colour;   /* nothing of its own is coloured */
	buf_text(b, a->how);
	buf_printf(b, "%*s  ", (int)(r->how - strlen(a->how)), "");
	buf_text(b, a->reason);
}

/* JSON or text through report.c's writers. */
static void write_rows(struct buf *b, enum out_format f, const struct cp *c)
{
	struct cp_rows cr = {c, 3};
	for (size_t i = 0; i < c->n; i++)
		if (strlen(c->a[i].how) > cr.how)
			cr.how = strlen(c->a[i].how);
	struct buf hash = {0};
	for (size_t k = 0; arch_all[k]; k++)
		buf_printf(&hash, "%s%s", k ? "," : "", c->cats[k].hash);
	struct report_rows r = {&cr, c->n, "cc-probe", hash.s, "probe", cp_name, cp_status, cp_json_head,
	                        cp_json_row, cp_text_head, cp_text_titles, cp_text_row};
	if (f == OUT_JSON)
		report_json_rows(b, &r);
	else
		report_text_rows(b, &r, 0);
	buf_free(&hash);
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
		own[2 * i + 1] = xprintf("%s%s%s", engine_status_name(a->st), *a->reason ? ": " : "", a->reason);
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
	if (o->fmt == OUT_JSON || o->fmt == OUT_TEXT)
		write_rows(&b, o->fmt, c);
	else
		write_vars(&b, o->fmt, c);
	int r = file_output("asmcap cc-probe", o->output, &b);
	buf_free(&b);
	for (size_t k = 0; !r && k < c->n; k++)
		if (req[k] && c->a[k].st != ST_YES) {
			struct buf why = {0};
			buf_text(&why, c->a[k].reason);
			fprintf(stderr, "asmcap cc-probe: required probe %s is %s: %s\n", c->a[k].name,
			        engine_status_name(c->a[k].st), why.s ? why.s : "");
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
	if (!r && !cached && !(r = cc_probe_all(&c, err, sizeof err)) && key)
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
