/* SPDX-License-Identifier: MIT */
/* One assembler run over a set of catalog snippets: the source with each
 * snippet between labels (asmcap_b_N / asmcap_e_N), the command, and what
 * the run says: per snippet the bytes in the object, compared with the
 * catalog's, or the assembler's message for the snippet's lines. */
#include "asmrun.h"
#include "arch.h"
#include "file.h"
#include "xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void verdict_set(struct verdict *v, enum status st, char *reason, double ms)
{
	free(v->reason);
	v->st = st;
	v->reason = reason ? reason : xstrdup("");
	v->ms = ms;
}

int asmrun_want_cpp(const struct ctx *x)
{
	return !strcmp(x->p->way, "cc") && x->p->mode == 'S';
}

/* nasm and MASM: Intel-syntax .asm sources with their own directives. */
static int intel_way(const struct ctx *x)
{
	return !strcmp(x->p->way, "nasm") || !strcmp(x->p->way, "masm");
}

/* The `as-flag:' flags of the run's features (each runs alone) that the
 * build's flags do not already carry: for the driver as they are, for an
 * assembler run directly the words a driver's `-Wa,' would pass it. */
static void add_as_flags(const struct ctx *x, struct asm_run *u)
{
	int driver = !strcmp(x->p->way, "cc");
	for (size_t i = 0; i < u->n; i++) {
		const char *fl = x->p->cat.f[u->f[i]].as_flag;
		if (!fl || strv_has(&x->cflags, fl) || strv_has(&x->asflags, fl))
			continue;
		if (driver || strncmp(fl, "-Wa,", 4)) {
			strv_push(&u->argv, fl);
			continue;
		}
		char *words = xstrdup(fl + 4);
		for (char *w = strtok(words, ","); w; w = strtok(NULL, ","))
			strv_push(&u->argv, w);
		free(words);
	}
}

static void asm_run_init(struct ctx *x, struct asm_run *u, const size_t *f, size_t n)
{
	const char *ext = intel_way(x) ? "asm" : asmrun_want_cpp(x) ? "S" : "s";
	memset(u, 0, sizeof *u);
	u->f = xmalloc((n + 1) * sizeof *u->f);
	if (n)
		memcpy(u->f, f, n * sizeof *f);
	u->n = n;
	u->first = xcalloc(n + 1, sizeof *u->first);
	u->last = xcalloc(n + 1, sizeof *u->last);
	snprintf(u->src, sizeof u->src, "asmcap%u.%s", x->seq, ext);
	snprintf(u->obj, sizeof u->obj, "asmcap%u.o", x->seq++);
	u->srcpath = xprintf("%s/%s", x->dir, u->src);
	u->objpath = xprintf("%s/%s", x->dir, u->obj);
	strv_append(&u->argv, &x->p->argv);
	if (!strcmp(x->p->way, "cc")) {
		strv_append(&u->argv, &x->cflags);
		strv_append(&u->argv, &x->asflags);
		add_as_flags(x, u);
		if (x->verbose)
			strv_push(&u->argv, "-v");
		u->verbose = x->verbose;
		x->verbose = 0;
		const char *tail[] = {"-c", "-x", asmrun_want_cpp(x) ? "assembler-with-cpp" : "assembler",
		                      u->srcpath, "-o", u->objpath, NULL};
		for (const char **t = tail; *t; t++)
			strv_push(&u->argv, *t);
	} else if (!strcmp(x->p->way, "as")) {
		strv_append(&u->argv, &x->asflags);
		add_as_flags(x, u);
		const char *tail[] = {"-o", u->objpath, u->srcpath, NULL};
		for (const char **t = tail; *t; t++)
			strv_push(&u->argv, *t);
	} else if (!strcmp(x->p->way, "nasm")) {
		strv_append(&u->argv, &x->asflags);
		const char *tail[] = {"-f", x->nasm_fmt, "-o", u->objpath, u->srcpath, NULL};
		for (const char **t = tail; *t; t++)
			strv_push(&u->argv, *t);
	} else {
		/* ml64's options start with `/', so a path that does too goes
		 * joined to /Fo (object) and /Ta (source); /c: no link */
		strv_append(&u->argv, &x->asflags);
		strv_push(&u->argv, "/c");
		char *fo = xprintf("/Fo%s", u->objpath), *ta = xprintf("/Ta%s", u->srcpath);
		strv_push(&u->argv, fo);
		strv_push(&u->argv, ta);
		free(fo);
		free(ta);
	}
	memset(&u->job, 0, sizeof u->job);
	u->job.argv = u->argv.v;
}

void asm_run_free(struct asm_run *u)
{
	free(u->f);
	free(u->first);
	free(u->last);
	free(u->text);
	free(u->srcpath);
	free(u->objpath);
	strv_free(&u->argv);
	run_result_free(&u->job.r);
}

/* One macro's lines, unless seen holds it already. */
static unsigned cpp_symbol(struct buf *b, struct strv *seen, const char *macro, const char *value)
{
	for (size_t i = 0; i < seen->n; i++)
		if (!strcmp(seen->v[i], macro))
			return 0;
	strv_push(seen, macro);
	buf_printf(b, "#ifdef %s\n\t.set asmcap_m_%s, %s\n#endif\n", macro, macro, value);
	return 3;
}

/* What the preprocessor says under these flags, as symbols in the
 * object: the same cpp run the build's .S files get.  The target is not
 * known before the first object: every module's macros and facts (and
 * those of a machine without a module), each as asmcap_m_<NAME> with its
 * value (1 for a fact that is only ever asked whether it is defined).
 * Each macro once: the lines it takes. */
static unsigned cpp_symbols(struct buf *b)
{
	struct strv seen = {0};
	unsigned lines = 0;
	for (const struct arch *const *a = arch_all;; a++) {
		const struct arch_fact *f = arch_facts(*a);
		for (const char *const *m = *a ? (*a)->macros : NULL; m && *m; m++)
			lines += cpp_symbol(b, &seen, *m, *m);
		for (; f->name; f++)
			lines += cpp_symbol(b, &seen, f->macro, f->kind == ARCH_FACT_DEFINED ? "1" : f->macro);
		if (!*a)
			break;
	}
	strv_free(&seen);
	buf_puts(b, "\t.set asmcap_m_seen, 1\n");
	return lines + 1;
}

/* What a way in's source says around the snippets: the code section, the
 * directive that makes the labels public (nasm, MASM), the last line. */
struct dialect { const char *text_sec, *publish, *end; };
static const struct dialect gas_dialect = {"\t.text\n", NULL, ""},
                            nasm_dialect = {"section .text\n", "global", ""},
                            masm_dialect = {".code\n", "PUBLIC", "END\n"};

/* put_spelling writes one `enable:' spelling, a directive a line (its
 * `;'-separated parts); returns the lines written. */
static unsigned put_spelling(struct buf *b, const char *s)
{
	unsigned lines = 0;
	while (*s) {
		size_t len = strcspn(s, ";");
		size_t end = len;
		while (end && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		buf_printf(b, "\t%.*s\n", (int)end, s);
		lines++;
		s += len;
		s += *s == ';';
		s += strspn(s, " \t");
	}
	return lines;
}

/* The source text of a unit; records each snippet's line range. */
static char *asm_run_source(struct ctx *x, struct asm_run *u)
{
	const struct dialect *d = !strcmp(x->p->way, "nasm") ? &nasm_dialect :
	                          !strcmp(x->p->way, "masm") ? &masm_dialect : &gas_dialect;
	const char *text_sec = d->text_sec;
	struct buf b = {0};
	unsigned line = 1;
	if (asmrun_want_cpp(x))
		line += cpp_symbols(&b);
	buf_puts(&b, text_sec);
	line++;
	const struct arch *a = arch_named(x->p->arch);
	int pushpop = a && a->scope == ARCH_SCOPE_PUSHPOP;
	for (size_t i = 0; i < u->n; i++) {
		const struct feature *f = &x->p->cat.f[u->f[i]];
		const char *body = engine_way_body(x->p, f);
		u->first[i] = line;
		/* the directives' reach ends with the snippet (arch.h) */
		if (pushpop) {
			buf_puts(&b, a->scope_open);
			line++;
		}
		if (!x->bare && f->nenable)
			line += put_spelling(&b, f->enable[x->p->v[u->f[i]].spelling]);
		if (d->publish) {
			/* public, so every assembler names them in the object
			 * (yasm leaves local labels nameless in elf64 objects) */
			buf_printf(&b, "%s asmcap_b_%zu, asmcap_e_%zu\n", d->publish, u->f[i], u->f[i]);
			line++;
		}
		buf_printf(&b, "asmcap_b_%zu:\n", u->f[i]);
		line++;
		for (const char *p = body; *p;) {
			size_t len = strcspn(p, "\n");
			const char *q = p;
			while (q < p + len && (*q == ' ' || *q == '\t'))
				q++;
			/* cpp would read a `#' comment line as a directive */
			if (!(asmrun_want_cpp(x) && *q == '#'))
				buf_add(&b, p, len);
			buf_puts(&b, "\n");
			line++;
			p += len + (p[len] == '\n');
		}
		buf_puts(&b, text_sec);
		buf_printf(&b, "asmcap_e_%zu:\n", u->f[i]);
		line += 2;
		if (pushpop) {
			buf_puts(&b, a->scope_close);
			line++;
		}
		u->last[i] = line - 1;
	}
	buf_puts(&b, d->end);
	return b.s;
}

static int write_file(const char *dir, const char *name, const char *text, char *err, size_t errlen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (file_write(path, text)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	if (run_log)
		fprintf(run_log, "# %s:\n%s", name, text);
	return 0;
}

/* The snippet of u whose label (asmcap_b_N / asmcap_e_N) the line names,
 * or u->n. */
static size_t label_owner(const struct asm_run *u, const char *l, size_t len)
{
	for (const char *s = l; s + 9 < l + len; s++) {
		if (strncmp(s, "asmcap_", 7) || (s[7] != 'b' && s[7] != 'e') || s[8] != '_' ||
		    !isdigit((unsigned char)s[9]) || (s > l && (isalnum((unsigned char)s[-1]) || s[-1] == '_')))
			continue;
		char *end;
		unsigned long n = strtoul(s + 9, &end, 10);
		if (end <= l + len && !isalnum((unsigned char)*end) && *end != '_')
			for (size_t i = 0; i < u->n; i++)
				if (u->f[i] == n)
					return i;
	}
	return u->n;
}

/* Messages naming `src:LINE:` (or, for an error, a snippet's label).  For
 * each snippet of u: its first error and first warning (malloc'd, or
 * NULL); *general: the first warning that names no snippet.  Returns how
 * many snippets have errors. */
static size_t blame(const struct asm_run *u, const char *err, char **errs, char **warns, char **general)
{
	size_t nsrc = strlen(u->src), hit = 0;
	for (const char *l = err; *l;) {
		size_t len = strcspn(l, "\n");
		const char *p = NULL;
		for (const char *s = l; s + nsrc < l + len && !p; s++)
			if (!strncmp(s, u->src, nsrc) && (s[nsrc] == ':' || s[nsrc] == '(') &&
			    isdigit((unsigned char)s[nsrc + 1]))
				p = s;      /* SRC:LINE: (GNU as, clang, nasm), SRC(LINE) (ml64) */
		size_t owner = p ? u->n : label_owner(u, l, len);
		char *line = !p && owner < u->n && !errs[owner] ? out_one_line(l, len) : NULL;
		if (line && (strstr(line, "rror") || strstr(line, "fatal"))) {
			errs[owner] = line;
			hit++;
			line = NULL;
		}
		free(line);
		if (!p && !*general && (strstr(l, "Warning:") || strstr(l, "warning:")) && len < 4096)
			*general = out_one_line(l, len);
		if (p) {
			char *end;
			unsigned long line = strtoul(p + nsrc + 1, &end, 10);
			const char *m = end;
			while (*m == ':' || *m == ')' || *m == ' ' || isdigit((unsigned char)*m))
				m++;       /* ":COL: ", ") : " */
			size_t mlen = len - (m - l), i;
			for (i = 0; i < u->n && !(line >= u->first[i] && line <= u->last[i]); i++)
				;
			/* Past the last snippet the source holds nothing: an error
			 * there is the end of file inside something a snippet left
			 * open (clang: "unmatched .ifs or .elses"), and a run of one
			 * snippet names it. */
			int past = i == u->n && u->n == 1 && line > u->last[0];
			if (past)
				i = 0;
			if (i < u->n && (!strncasecmp(m, "error", 5) || !strncasecmp(m, "fatal", 5)) && !errs[i]) {
				char *msg = out_one_line(m, mlen);
				errs[i] = past ? xprintf("%s (at the end of the source: the snippet leaves it open)", msg) : msg;
				if (past)
					free(msg);
				hit++;
			} else if (i < u->n && !strncasecmp(m, "warning", 7) && !warns[i])
				warns[i] = out_one_line(m, mlen);
		}
		l += len + (l[len] == '\n');
	}
	return hit;
}

enum outcome asmrun_end(const struct asm_run *u, char *err, size_t errlen)
{
	const struct run_result *r = &u->job.r;
	if (u->job.start_failed && !r->not_found) {
		snprintf(err, errlen, "cannot run `%s': %s", u->argv.v[0], u->job.start_err);
		return OUTCOME_UNUSABLE;
	}
	if (r->not_found || r->timed_out || r->signal) {
		run_describe(u->argv.v, r, err, errlen);
		/* a hang costs --timeout each time: not worth another run */
		return r->signal ? OUTCOME_NOANSWER : OUTCOME_UNUSABLE;
	}
	return OUTCOME_OK;
}

char *asmrun_complaint(const struct asm_run *u)
{
	const struct run_result *r = &u->job.r;
	char *msg = asmrun_error_line(r->err[0] ? r->err : r->out);
	if (!*msg) {
		free(msg);
		msg = xprintf("exit status %d", r->status);
	}
	return msg;
}

/* Read the object of a run that exited 0. */
int asmrun_load_obj(const struct asm_run *u, uint8_t **buf, struct obj *o,
                    char *err, size_t errlen)
{
	char why[256];
	size_t len = 0;
	*buf = file_read(u->objpath, &len);
	if (!*buf) {
		char *cmd = argv_brief(u->argv.v);
		snprintf(err, errlen, "`%s' exited 0 but wrote no object %s", cmd, u->obj);
		free(cmd);
		return -1;
	}
	if (obj_parse(o, *buf, len, why, sizeof why)) {
		char *cmd = argv_brief(u->argv.v);
		snprintf(err, errlen, "`%s' exited 0 but its output: %s", cmd, why);
		free(cmd);
		free(*buf);
		*buf = NULL;
		return -1;
	}
	if (run_log) {
		fprintf(run_log, "# %s: %s, %zu bytes\n", u->obj, obj_format_name(o), len);
		for (size_t i = 0; i < o->nsections; i++)
			if (o->sections[i].size && o->sections[i].data) {
				struct buf b = {0};
				buf_hex(&b, o->sections[i].data, o->sections[i].size > 256 ? 256 : o->sections[i].size);
				fprintf(run_log, "#   %s: %s%s\n", o->sections[i].name, b.s,
				        o->sections[i].size > 256 ? " ..." : "");
				buf_free(&b);
			}
	}
	return 0;
}

static const struct obj_symbol *cpp_symbol_of(const struct obj *o, const char *macro)
{
	char sym[96];
	snprintf(sym, sizeof sym, "asmcap_m_%s", macro);
	return obj_symbol_named(o, sym);
}

/* What the object says about the target: its architecture (a module's,
 * or the name of a machine asmcap has none for), format and, in --mode S,
 * the build macros. */
void asmrun_learn_target(struct ctx *x, const struct obj *o)
{
	char m[32];
	x->p->target = arch_of_obj(o);
	snprintf(x->p->arch, sizeof x->p->arch, "%s", arch_machine_name(o, m, sizeof m));
	snprintf(x->p->format, sizeof x->p->format, "%s", obj_format_name(o));
	if (asmrun_want_cpp(x) && obj_symbol_named(o, "asmcap_m_seen")) {
		struct build_info *b = &x->p->build;
		const struct obj_symbol *s;
		memset(b, 0, sizeof *b);
		b->known = 1;
		const struct arch_fact *f = arch_facts(x->p->target);
		for (const char *const *n = x->p->target ? x->p->target->macros : NULL; n && *n; n++)
			if ((s = cpp_symbol_of(o, *n)))
				driver_build_macro_set(b, *n, (long)s->value);
		for (; f->name; f++)
			if ((s = cpp_symbol_of(o, f->macro)))
				driver_build_macro_set(b, f->macro, (long)s->value);
	}
	const char *natural = intel_way(x) && o->format == OBJ_COFF ? x->p->way :
	                      o->format == OBJ_COFF ? "mingw64" : o->format == OBJ_MACHO ? "macosx" : "elf";
	const char *fl = x->o->flavour;
	if (!fl)
		snprintf(x->p->flavour, sizeof x->p->flavour, "%s", natural);
	else if (strcmp(fl, natural) && !(o->format == OBJ_COFF && !strcmp(fl, "mingw64")) && !x->warned++)
		fprintf(stderr, "asmcap: warning: --flavour %s, but this toolchain makes %s objects\n", fl,
		        obj_format_name(o));
}

enum outcome asm_run_eval(struct ctx *x, struct asm_run *u, struct obj *o, uint8_t **objbuf,
                              char *err, size_t errlen)
{
	const struct run_result *r = &u->job.r;
	enum outcome out = asmrun_end(u, err, errlen);
	if (out != OUTCOME_OK)
		return out;
	char **errs = xcalloc(u->n + 1, sizeof *errs), **warns = xcalloc(u->n + 1, sizeof *warns);
	char *general = NULL;
	size_t hit = blame(u, r->err, errs, warns, &general);
	if (!strcmp(x->p->way, "masm"))     /* ml64 prints its messages on stdout */
		hit += blame(u, r->out, errs, warns, &general);
	if (r->status == 0) {
		if (asmrun_load_obj(u, objbuf, o, err, errlen))
			out = OUTCOME_NOANSWER;
		else {
			asmrun_learn_target(x, o);
			for (size_t i = 0; i < u->n; i++)
				evidence_decide(x, u->f[i], o, warns[i], general, u, &x->p->v[u->f[i]]);
		}
	} else if (hit) {
		for (size_t i = 0; i < u->n; i++)
			if (errs[i])
				evidence_record_failure(x, u->f[i], u, errs[i]);
		out = OUTCOME_FAILED;
	} else {
		char *cmd = argv_brief(u->argv.v), *msg = asmrun_complaint(u);
		snprintf(err, errlen, "`%s' exited with status %d: %s", cmd, r->status, msg);
		free(cmd);
		free(msg);
		out = OUTCOME_NOLINES;
	}
	for (size_t i = 0; i < u->n; i++)
		free(errs[i]), free(warns[i]);
	free(errs);
	free(warns);
	free(general);
	return out;
}

char *asmrun_first_line(const char *s)
{
	while (*s == '\n')
		s++;
	return out_one_line(s, strlen(s));
}

int asmrun_prepare(struct ctx *x, struct asm_run *u, const size_t *f, size_t n, char *err, size_t errlen)
{
	asm_run_init(x, u, f, n);
	u->text = asm_run_source(x, u);
	return write_file(x->dir, u->src, u->text, err, errlen) ? 3 : 0;
}

/* The first line that says error or fatal, else the first line. */
char *asmrun_error_line(const char *text)
{
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		size_t len = strcspn(l, "\n");
		char *line = out_one_line(l, len);
		if (strstr(line, "rror") || strstr(line, "fatal"))
			return line;
		free(line);
	}
	return asmrun_first_line(text);
}

