/* SPDX-License-Identifier: MIT */
/* Probe results in every output format: caps.json (schema 1), the
 * build-facing variable formats through out_vars(), and the text table.
 * The JSON and text frames serve cc-probe too (struct report_rows). */
#include "report.h"
#include "arch.h"
#include "asmrun.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* The file VERSION's, embedded with the catalog (the one place it is kept). */
extern const char asmcap_version_line[];

const char *report_version(void)
{
	return asmcap_version_line;
}

/* One walk over `requires' (the catalog has no cycles), each feature
 * decided once: without the memo, layered requires cost 2^depth.
 * memo[i]: 0 not yet, 1 usable, 2 not (root[i]: the first feature down
 * its chain that is not yes, or NULL when i itself is not). */
struct walk { const struct probe *p; unsigned char *memo; const char **root; };

static int usable_at(struct walk *w, size_t i);

/* Every feature f requires usable; missing: the root of the first that is not. */
static int requires_walk(struct walk *w, const struct feature *f, const char **missing)
{
	for (size_t k = 0; k < f->nrequires; k++) {
		const struct feature *r = catalog_find(&w->p->cat, f->requires[k]);
		size_t ri = r ? (size_t)(r - w->p->cat.f) : 0;
		if (r && !usable_at(w, ri)) {
			if (missing)
				*missing = w->root[ri] ? w->root[ri] : r->name;
			return 0;
		}
	}
	return 1;
}

static int usable_at(struct walk *w, size_t i)
{
	if (!w->memo[i]) {
		const char *root = NULL;
		int ok = w->p->v[i].st == ST_YES && requires_walk(w, &w->p->cat.f[i], &root);
		w->memo[i] = ok ? 1 : 2;
		w->root[i] = root;
	}
	return w->memo[i] == 1;
}

/* Feature i usable (own), or only everything it requires (!own), through
 * one fresh memo: linear in the requires edges below i. */
static int walk_from(const struct probe *p, size_t i, int own, const char **missing)
{
	struct walk w = {p, xcalloc(p->cat.n + 1, 1), xcalloc(p->cat.n + 1, sizeof *w.root)};
	int ok = own ? usable_at(&w, i) : requires_walk(&w, &p->cat.f[i], missing);
	if (own && missing)
		*missing = w.root[i];
	free(w.memo);
	free(w.root);
	return ok;
}

/* Usable by generated code: yes, and every feature it requires usable.
 * The one definition behind every output format, --require, advice and
 * caps.json's "usable". */
int report_feature_usable(const struct probe *p, size_t i, const char **missing)
{
	return walk_from(p, i, 1, missing);
}

static void json_bool(struct buf *b, const char *name, int known, int v, int last)
{
	buf_printf(b, "\"%s\": %s%s", name, !known ? "null" : v ? "true" : "false", last ? "" : ", ");
}

/* The probe's rows (report_rows.ctx), and what its text table shows. */
struct probe_rows {
	const struct probe *p;
	int ms;         /* an ms column: some feature had a run of its own */
	int two;        /* a column for the second answer, where there is one */
};

static const char *probe_name(void *ctx, size_t i)
{
	return ((struct probe_rows *)ctx)->p->cat.f[i].name;
}

static enum status probe_status(void *ctx, size_t i)
{
	return ((struct probe_rows *)ctx)->p->v[i].st;
}

void report_json_rows(struct buf *b, const struct report_rows *r)
{
	buf_puts(b, "{\"schema\": 1,");
	if (r->kind)
		buf_printf(b, " \"kind\": \"%s\",", r->kind);
	buf_printf(b, "\n \"asmcap\": {\"version\": \"%s\", \"catalog\": ", asmcap_version_line);
	buf_json_str(b, r->catalog);
	buf_puts(b, "},\n \"toolchain\": {");
	r->json_head(b, r->ctx);
	buf_puts(b, "},\n \"features\": {");
	for (size_t i = 0; i < r->n; i++) {
		buf_puts(b, i ? ",\n  " : "\n  ");
		buf_json_str(b, r->name(r->ctx, i));
		buf_printf(b, ": {\"status\": \"%s\"", engine_status_name(r->status(r->ctx, i)));
		r->json_row(b, r->ctx, i);
		buf_puts(b, "}");
	}
	buf_puts(b, "\n }\n}\n");
}

/* The probe's toolchain members, then its `build' object (left open: the
 * frame closes it). */
static void probe_json_head(struct buf *b, void *ctx)
{
	const struct probe *p = ((struct probe_rows *)ctx)->p;
	buf_puts(b, "\"way\": ");
	buf_json_str(b, p->way);
	buf_puts(b, ", \"argv\": ");
	buf_json_strs(b, p->argv.v, p->argv.n);
	const char mode[2] = {p->mode, 0};
	const struct json_member toolchain[] = {
		{", ", "path", p->path}, {",\n     ", "identity", p->identity},
		{", ", "assembler", p->assembler}, {",\n     ", "arch", p->arch},
		{", ", "format", p->format}, {", ", "flavour", p->flavour},
		{", ", "mode", mode}, {", ", "cflags", p->cflags}, {", ", "asflags", p->asflags},
	};
	buf_json_members(b, toolchain, sizeof toolchain / sizeof *toolchain);
	buf_puts(b, "},\n \"build\": {");
	const struct build_info *bi = &p->build;
	for (const struct arch_fact *f = arch_facts(p->target); f->name; f++)
		if (f->kind != ARCH_FACT_NUMBER)
			json_bool(b, f->name, bi->known, (int)driver_build_fact(bi, f), 0);
		else if (bi->known)
			buf_printf(b, "\"%s\": %ld, ", f->name, driver_build_fact(bi, f));
		else
			buf_printf(b, "\"%s\": null, ", f->name);
	/* the architectures' macros (arch.h) the build defines */
	buf_puts(b, "\"macros\": {");
	const char *sep = "";
	for (size_t i = 0; i < bi->nmacro; i++)
		if (arch_macro_named(bi->macro[i].name)) {
			buf_printf(b, "%s\"%s\": %ld", sep, bi->macro[i].name, bi->macro[i].value);
			sep = ", ";
		}
	buf_puts(b, "}");
}

/* A feature's members after its status. */
static void probe_json_row(struct buf *b, void *ctx, size_t i)
{
	const struct probe *p = ((struct probe_rows *)ctx)->p;
	const struct feature *f = &p->cat.f[i];
	const struct verdict *v = &p->v[i];
	buf_puts(b, ", \"reason\": ");
	buf_json_str(b, v->reason);
	buf_puts(b, ", \"requires\": [");
	for (size_t k = 0; k < f->nrequires; k++) {
		buf_puts(b, k ? ", " : "");
		buf_json_str(b, f->requires[k]);
	}
	buf_printf(b, "], \"usable\": %s, \"ms\": %.1f", report_feature_usable(p, i, NULL) ? "true" : "false", v->ms);
	if (f->nenable) {
		/* the second answer: without the `enable:` directives */
		buf_printf(b, ", \"flags\": {\"status\": \"%s\", \"reason\": ", engine_status_name(p->vf[i].st));
		buf_json_str(b, p->vf[i].reason);
		buf_printf(b, ", \"ms\": %.1f}", p->vf[i].ms);
		/* the spelling that gave the bytes, for the build's own .S files */
		buf_puts(b, ", \"enable\": ");
		buf_json_str(b, v->st == ST_YES ? f->enable[v->spelling] : NULL);
	}
}

/* ASMCAP_BUILD_<FACT> for each build fact of the target: its value and,
 * where the fact names one, the macro it comes from.  The variables it
 * wrote; what it allocated joins own. */
static size_t fact_vars(const struct probe *p, struct out_var *v, char **own, size_t *nown)
{
	const struct build_info *bi = &p->build;
	const char *unknown = bi->known ? NULL : "unknown: the preprocessor run failed";
	size_t k = 0;
	for (const struct arch_fact *f = arch_facts(p->target); f->name; f++) {
		long val = driver_build_fact(bi, f);
		char *name = out_var_name("ASMCAP_BUILD_", f->name), *num = xprintf("%ld", val);
		own[(*nown)++] = name;
		own[(*nown)++] = num;
		v[k++] = (struct out_var){name, f->kind == ARCH_FACT_NUMBER ? num : val ? "yes" : "no",
		                          unknown ? unknown : f->why, 0};
	}
	return k;
}

void report_vars(struct buf *b, enum out_format fmt, const struct probe *p, const char *who)
{
	size_t nfacts = 0, k = 0, nown = 0;
	while (arch_facts(p->target)[nfacts].name)
		nfacts++;
	size_t n = 3 * p->cat.n + 3 + nfacts;
	struct out_var *v = xcalloc(n, sizeof *v);
	char **own = xcalloc(2 * n, sizeof *own);
	const char *tool[][2] = {{"ASMCAP_ARCH", p->arch}, {"ASMCAP_FORMAT", p->format},
	                         {"ASMCAP_FLAVOUR", p->flavour}};
	for (int i = 0; i < 3; i++)
		v[k++] = (struct out_var){tool[i][0], tool[i][1], NULL, 0};
	k += fact_vars(p, v + k, own, &nown);
	for (size_t i = 0; i < p->cat.n; i++) {
		const char *missing = NULL;
		int yes = report_feature_usable(p, i, &missing);
		char *name = out_var_name("ASMCAP_", p->cat.f[i].name), *c = NULL;
		if (missing)
			c = xprintf("%s assembles, but it requires %s, which is %s", p->cat.f[i].name, missing,
			            engine_status_name(p->v[catalog_find(&p->cat, missing) - p->cat.f].st));
		else if (!yes)
			c = xprintf("%s%s%s", engine_status_name(p->v[i].st), *p->v[i].reason ? ": " : "", p->v[i].reason);
		own[nown++] = name;
		own[nown++] = c;
		v[k++] = (struct out_var){name, p->v[i].st == ST_UNPROBED ? NULL : yes ? "yes" : "no", c, 0};
		if (p->cat.f[i].nenable) {
			/* ASMCAP_<F>_FLAGS: usable without the directive, by the build's -march */
			const struct verdict *vf = &p->vf[i];
			int fyes = vf->st == ST_YES && walk_from(p, i, 0, NULL);
			char *fname = xprintf("%s_FLAGS", name), *fc = NULL;
			if (!fyes && p->v[i].st != ST_UNPROBED)
				fc = xprintf("without a directive: %s%s%s", engine_status_name(vf->st),
				             *vf->reason ? ": " : "", vf->reason);
			own[nown++] = fname;
			own[nown++] = fc;
			v[k++] = (struct out_var){fname, p->v[i].st == ST_UNPROBED ? NULL : fyes ? "yes" : "no", fc, 0};
			/* ASMCAP_<F>_ENABLE: the directive line(s) that gave the bytes */
			char *ename = xprintf("%s_ENABLE", name);
			own[nown++] = ename;
			v[k++] = (struct out_var){ename, p->v[i].st == ST_UNPROBED ? NULL :
			                          yes ? p->cat.f[i].enable[p->v[i].spelling] : "", NULL, 1};
		}
	}
	out_vars(b, fmt, who, v, k);
	for (size_t i = 0; i < nown; i++)
		free(own[i]);
	free(own);
	free(v);
}

/* Decided by a run of its own (or one not known to be shared): its time
 * is its own, and the table shows it on its row. */
static int own_run(const struct verdict *v)
{
	return (v->st == ST_YES || v->st == ST_NO || v->st == ST_BROKEN) && v->shared <= 1;
}

/* The runs that decided several features at once (one batch gives them
 * all its time), each once, on a line above the table: 1 when some
 * feature had a run of its own, which the table's ms column is then for. */
static int report_runs(struct buf *b, const struct probe *p)
{
	const char *sep = "runs:      ";
	int own = 0;
	for (size_t i = 0; i < p->cat.n; i++) {
		const struct verdict *v = &p->v[i];
		size_t j = 0;
		own |= own_run(v);
		if (own_run(v) || v->shared < 2)
			continue;
		while (p->v[j].shared != v->shared || p->v[j].ms != v->ms)
			j++;
		if (j < i)
			continue;       /* that run is listed already */
		buf_printf(b, "%s%zu snippets in one run, %.1f ms", sep, v->shared, v->ms);
		sep = "; ";
	}
	if (*sep == ';')
		buf_puts(b, "\n");
	return own;
}

/* The `build:' line: "CET ibt+shstk, PIC 2, ILP32" (facts sharing a
 * label give one item: their words, or "off"; a yes/no fact without a
 * word shows its label when yes). */
static void report_facts(struct buf *b, const struct probe *p)
{
	const struct arch_fact *facts = arch_facts(p->target);
	const char *sep = "build:     ";
	for (const struct arch_fact *f = facts; f->name; f++) {
		long val = driver_build_fact(&p->build, f);
		int first = 1;
		for (const struct arch_fact *g = facts; g != f && first; g++)
			first = !g->word || !f->word || strcmp(g->label, f->label);
		if (!first || (f->kind != ARCH_FACT_NUMBER && !f->word && !val))
			continue;
		buf_printf(b, "%s%s", sep, f->label);
		sep = ", ";
		if (f->kind == ARCH_FACT_NUMBER) {
			buf_printf(b, " %ld", val);
			continue;
		}
		const char *join = " ";
		for (const struct arch_fact *g = f; f->word && g->name; g++)
			if (g->word && !strcmp(g->label, f->label) && driver_build_fact(&p->build, g)) {
				buf_printf(b, "%s%s", join, g->word);
				join = "+";
			}
		if (f->word && *join == ' ')
			buf_puts(b, " off");
	}
	if (*sep == ',')
		buf_puts(b, "\n");
}

/* A status, coloured on a terminal, and the gap after its column. */
static void status_cell(struct buf *b, enum status st, int colour)
{
	static const char *const col[] = {"\033[32m", "\033[31m", "\033[33m", "\033[2m", "\033[2m",
	                                  "\033[2m"};
	buf_printf(b, "%s%-8s%s  ", colour ? col[st] : "", engine_status_name(st), colour ? "\033[0m" : "");
}

void report_text_rows(struct buf *b, const struct report_rows *r, int colour)
{
	size_t w = strlen(r->title);
	for (size_t i = 0; i < r->n; i++)
		if (strlen(r->name(r->ctx, i)) > w)
			w = strlen(r->name(r->ctx, i));
	r->text_head(b, r->ctx);
	buf_printf(b, "\n%-*s  %-8s  ", (int)w, r->title, "status");
	r->text_titles(b, r->ctx);
	buf_puts(b, "reason\n");
	for (size_t i = 0; i < r->n; i++) {
		buf_printf(b, "%-*s  ", (int)w, r->name(r->ctx, i));
		status_cell(b, r->status(r->ctx, i), colour);
		r->text_row(b, r->ctx, i, colour);
		buf_puts(b, "\n");
	}
}

/* The lines above the probe's table. */
static void probe_text_head(struct buf *b, void *ctx)
{
	struct probe_rows *pr = ctx;
	const struct probe *p = pr->p;
	buf_puts(b, "toolchain: ");
	buf_text(b, p->identity && *p->identity ? p->identity : "?");
	buf_puts(b, " (");
	buf_text(b, p->path ? p->path : "?");
	buf_puts(b, ")\n");
	if (p->assembler && *p->assembler) {
		buf_puts(b, "assembler: ");
		buf_text(b, p->assembler);
		buf_puts(b, "\n");
	}
	buf_printf(b, "target:    %s, %s objects, flavour %s", p->arch, p->format, p->flavour);
	if (!strcmp(p->way, "cc"))
		buf_printf(b, ", mode %c", p->mode);
	buf_puts(b, "\n");
	if (p->build.known)
		report_facts(b, p);
	pr->ms = report_runs(b, p);
	for (size_t i = 0; i < p->cat.n; i++)
		pr->two |= p->cat.f[i].nenable > 0;
}

static void probe_text_titles(struct buf *b, void *ctx)
{
	const struct probe_rows *pr = ctx;
	buf_printf(b, "%s%s", pr->two ? "flags     " : "", pr->ms ? "     ms  " : "");
}

/* A feature's columns after its status, and its reason. */
static void probe_text_row(struct buf *b, void *ctx, size_t i, int colour)
{
	const struct probe_rows *pr = ctx;
	const struct probe *p = pr->p;
	const struct verdict *v = &p->v[i];
	const char *missing = NULL;
	report_feature_usable(p, i, &missing);
	if (pr->two && p->cat.f[i].nenable)
		status_cell(b, p->vf[i].st, colour);
	else if (pr->two)
		buf_printf(b, "%-8s  ", "-");
	if (pr->ms && own_run(v))
		buf_printf(b, "%7.1f  ", v->ms);
	else if (pr->ms)
		buf_printf(b, "%7s  ", v->shared > 1 ? "" : "-");
	buf_text(b, v->reason);
	if (missing)
		buf_printf(b, "%sunusable: requires %s", *v->reason ? "; " : "", missing);
}

/* The probe's rows for the shared writers. */
static struct report_rows probe_rows(struct probe_rows *pr)
{
	return (struct report_rows){pr, pr->p->cat.n, NULL, pr->p->cat.hash, "feature", probe_name, probe_status,
	                            probe_json_head, probe_json_row, probe_text_head, probe_text_titles,
	                            probe_text_row};
}

void report_json(struct buf *b, const struct probe *p)
{
	struct probe_rows pr = {p, 0, 0};
	struct report_rows r = probe_rows(&pr);
	report_json_rows(b, &r);
}

void report_text(struct buf *b, const struct probe *p, int colour)
{
	struct probe_rows pr = {p, 0, 0};
	struct report_rows r = probe_rows(&pr);
	report_text_rows(b, &r, colour);
	report_advice(b, p);
}

void report_fix(struct buf *b, const struct probe *p, size_t i)
{
	const struct feature *f = &p->cat.f[i];
	const struct verdict *v = &p->v[i];
	buf_puts(b, "Fix: ");
	if (v->st == ST_DISABLED) {
		buf_puts(b, "take it out of --disable and ASMCAP_DISABLE.");
	} else if (v->st == ST_UNPROBED) {
		buf_puts(b, "add it to --features.");
	} else if (v->st == ST_SKIPPED) {
		buf_printf(b, "none with this toolchain: it is not for this target (%s) or way in; require it only "
		           "where it applies.", p->arch);
	} else if (v->flags_blamed) {
		/* the assembler knows it: the build's flags turn it away */
		buf_puts(b, "the build's flags reject it (");
		if (p->cflags && *p->cflags) {
			buf_puts(b, "--cflags '");
			buf_text(b, p->cflags);
			buf_puts(b, p->asflags && *p->asflags ? "', " : "'");
		}
		if (p->asflags && *p->asflags) {
			buf_puts(b, "--asflags '");
			buf_text(b, p->asflags);
			buf_puts(b, "'");
		}
		buf_puts(b, "); the same toolchain assembles it without them: change or drop them.");
	} else if (f->nenable && p->vf[i].st == ST_YES) {
		/* the snippet without its directives gave the right bytes: the
		 * assembler knows the instruction, only the directives are
		 * refused, so asking for another assembler is wrong */
		buf_printf(b, "code without the directive can use %s: the build's flags enable it (flags answer: "
		           "yes); this assembler rejects", f->name);
		for (size_t k = 0; k < f->nenable; k++)
			buf_printf(b, "%s `%s'", k ? "," : "", f->enable[k]);
		buf_puts(b, ".");
	} else {
		buf_printf(b, "%san assembler that knows %s%s%s%s.",
		           v->st == ST_BROKEN ? "report the mis-encoding to the toolchain; or " : "",
		           f->name, f->since ? " (" : "", f->since ? f->since : "", f->since ? " or later)" : "");
	}
}

/* One line per feature the toolchain could not give (or gave, but a
 * feature it requires it did not): what failed, what would fix it, and —
 * when this CPU could run it — what it costs. */
void report_advice(struct buf *b, const struct probe *p)
{
	int head = 0;
	for (size_t i = 0; i < p->cat.n; i++) {
		const struct feature *f = &p->cat.f[i];
		const struct verdict *v = &p->v[i];
		const char *missing = NULL;
		if (report_feature_usable(p, i, &missing) || (v->st != ST_NO && v->st != ST_BROKEN && !missing))
			continue;
		if (!head++)
			buf_puts(b, "\nadvice:\n");
		if (missing) {
			buf_printf(b, "  %s: assembles, but it requires %s, which is %s; code cannot use it.\n", f->name,
			           missing, engine_status_name(p->v[catalog_find(&p->cat, missing) - p->cat.f].st));
			continue;
		}
		buf_printf(b, "  %s: ", f->name);
		buf_text(b, v->reason);
		buf_puts(b, ". ");
		report_fix(b, p, i);
		struct buf why = {0};
		if (arch_cpu_checks(f) && arch_cpu_runs(f, &why) == 1)
			buf_printf(b, " This CPU has %s%s%s.", f->name, f->cost ? ": " : "", f->cost ? f->cost : "");
		buf_free(&why);
		buf_puts(b, "\n");
	}
}
