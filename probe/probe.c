/* The probe engine.  The whole catalog goes through the assembler in one
 * run, each snippet between two labels (asmcap_b_N / asmcap_e_N) so its
 * bytes can be found in the object.  When the run fails, the assembler's
 * `file:LINE:` messages name the snippets it rejected; one more run without
 * them settles the rest.  Only a failure that names no line falls back to
 * one run per feature, in parallel. */
#include "probe.h"
#include "cache.h"
#include "obj.h"
#include "out.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *status_name(enum status s)
{
	static const char *const n[] = {"yes", "no", "broken", "skipped", "disabled"};
	return n[s];
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d) {
		fputs("asmcap: out of memory\n", stderr);
		exit(3);
	}
	return d;
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
	struct buf b = {0};
	char tmp[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	buf_puts(&b, tmp);
	return b.s;
}

static void set_verdict(struct verdict *v, enum status st, char *reason, double ms)
{
	free(v->reason);
	v->st = st;
	v->reason = reason ? reason : xstrdup("");
	v->ms = ms;
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

/* ---- one assembler run over a set of features ---- */

struct unit {
	size_t *f, n;                   /* catalog indices */
	unsigned *first, *last;         /* each snippet's line range in the source */
	char src[64], obj[64];           /* names, in the temp dir */
	char *text;                     /* the source */
	char *srcpath, *objpath;        /* full paths: runs happen in the caller's cwd,
	                                 * where relative -I and command paths mean what they say */
	struct strv argv;
	struct run_job job;
};

struct ctx {
	struct probe *p;
	const struct probe_opts *o;
	struct strv cflags, asflags;
	const char *dir;                /* the temp dir */
	const char *nasm_fmt;
	unsigned seq;                   /* names the files of each run */
	int verbose;                    /* the next --cc run gets -v */
	int warned;                     /* the flavour mismatch was reported */
};

static int want_cpp(const struct ctx *x)
{
	return !strcmp(x->p->way, "cc") && x->p->mode == 'S';
}

static void unit_init(struct ctx *x, struct unit *u, const size_t *f, size_t n)
{
	const char *ext = !strcmp(x->p->way, "nasm") ? "asm" : want_cpp(x) ? "S" : "s";
	memset(u, 0, sizeof *u);
	u->f = malloc((n + 1) * sizeof *u->f);
	if (n)
		memcpy(u->f, f, n * sizeof *f);
	u->n = n;
	u->first = calloc(n + 1, sizeof *u->first);
	u->last = calloc(n + 1, sizeof *u->last);
	snprintf(u->src, sizeof u->src, "asmcap%u.%s", x->seq, ext);
	snprintf(u->obj, sizeof u->obj, "asmcap%u.o", x->seq++);
	u->srcpath = xprintf("%s/%s", x->dir, u->src);
	u->objpath = xprintf("%s/%s", x->dir, u->obj);
	strv_append(&u->argv, &x->p->argv);
	if (!strcmp(x->p->way, "cc")) {
		strv_append(&u->argv, &x->cflags);
		strv_append(&u->argv, &x->asflags);
		if (x->verbose)
			strv_push(&u->argv, "-v");
		x->verbose = 0;
		const char *tail[] = {"-c", "-x", want_cpp(x) ? "assembler-with-cpp" : "assembler",
		                      u->srcpath, "-o", u->objpath, NULL};
		for (const char **t = tail; *t; t++)
			strv_push(&u->argv, *t);
	} else if (!strcmp(x->p->way, "as")) {
		strv_append(&u->argv, &x->asflags);
		const char *tail[] = {"-o", u->objpath, u->srcpath, NULL};
		for (const char **t = tail; *t; t++)
			strv_push(&u->argv, *t);
	} else {
		strv_append(&u->argv, &x->asflags);
		const char *tail[] = {"-f", x->nasm_fmt, "-o", u->objpath, u->srcpath, NULL};
		for (const char **t = tail; *t; t++)
			strv_push(&u->argv, *t);
	}
	memset(&u->job, 0, sizeof u->job);
	u->job.argv = u->argv.v;
}

static void unit_free(struct unit *u)
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

static const struct macro { const char *name, *sym; int value; } macros[] = {
	{"__CET__", "cet", 1}, {"__PIC__", "pic", 1}, {"__ILP32__", "ilp32", 0},
	{"__APPLE__", "apple", 0}, {"_WIN64", "win64", 0}, {NULL, NULL, 0},
};

/* The source text of a unit; records each snippet's line range. */
static char *unit_source(struct ctx *x, struct unit *u)
{
	int nasm = !strcmp(x->p->way, "nasm");
	const char *text_sec = nasm ? "section .text\n" : "\t.text\n";
	struct buf b = {0};
	unsigned line = 1;
	if (want_cpp(x)) {
		/* What the preprocessor says under these flags, as symbols in
		 * the object: the same cpp run the build's .S files get. */
		for (const struct macro *m = macros; m->name; m++) {
			buf_printf(&b, "#ifdef %s\n\t.set asmcap_m_%s, %s\n#endif\n", m->name, m->sym,
			           m->value ? m->name : "1");
			line += 3;
		}
		buf_puts(&b, "\t.set asmcap_m_seen, 1\n");
		line++;
	}
	buf_puts(&b, text_sec);
	line++;
	for (size_t i = 0; i < u->n; i++) {
		const struct feature *f = &x->p->cat.f[u->f[i]];
		const char *body = nasm ? f->nasm_body : f->body;
		u->first[i] = line;
		buf_printf(&b, "asmcap_b_%zu:\n", u->f[i]);
		line++;
		for (const char *p = body; *p;) {
			size_t len = strcspn(p, "\n");
			const char *q = p;
			while (q < p + len && (*q == ' ' || *q == '\t'))
				q++;
			/* cpp would read a `#' comment line as a directive */
			if (!(want_cpp(x) && *q == '#'))
				buf_add(&b, p, len);
			buf_puts(&b, "\n");
			line++;
			p += len + (p[len] == '\n');
		}
		buf_puts(&b, text_sec);
		buf_printf(&b, "asmcap_e_%zu:\n", u->f[i]);
		line += 2;
		u->last[i] = line - 1;
	}
	return b.s;
}

static int write_file(const char *dir, const char *name, const char *text, char *err, size_t errlen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	if (run_log)
		fprintf(run_log, "# %s:\n%s", name, text);
	return 0;
}

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 65536, n = 0, got;
	uint8_t *b = malloc(cap);
	while ((got = fread(b + n, 1, cap - n, f)) > 0)
		if ((n += got) == cap)
			b = realloc(b, cap *= 2);
	fclose(f);
	*len = n;
	return b;
}

static void hex(struct buf *b, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_printf(b, "%s%02x", i ? " " : "", p[i]);
}

/* A one-line, shortened copy of a message. */
static char *one_line(const char *s, size_t n)
{
	if (n > 300)
		n = 300;
	char *d = malloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n && s[i] && s[i] != '\n'; i++)
		d[k++] = s[i] == '\t' ? ' ' : s[i];
	while (k && d[k - 1] == ' ')
		k--;
	d[k] = 0;
	return d;
}

/* Messages naming `src:LINE:`.  For each snippet of u: its first error and
 * first warning (malloc'd, or NULL); *general: the first warning that names
 * no snippet.  Returns how many snippets have errors. */
static size_t blame(const struct unit *u, const char *err, char **errs, char **warns, char **general)
{
	size_t nsrc = strlen(u->src), hit = 0;
	for (const char *l = err; *l;) {
		size_t len = strcspn(l, "\n");
		const char *p = NULL;
		for (const char *s = l; s + nsrc < l + len && !p; s++)
			if (!strncmp(s, u->src, nsrc) && s[nsrc] == ':' && isdigit((unsigned char)s[nsrc + 1]))
				p = s;
		if (!p && !*general && (strstr(l, "Warning:") || strstr(l, "warning:")) && len < 4096)
			*general = one_line(l, len);
		if (p) {
			char *end;
			unsigned long line = strtoul(p + nsrc + 1, &end, 10);
			const char *m = end;
			while (*m == ':' || isdigit((unsigned char)*m))
				m++;       /* ":COL:" */
			while (*m == ' ')
				m++;
			size_t mlen = len - (m - l), i;
			for (i = 0; i < u->n && !(line >= u->first[i] && line <= u->last[i]); i++)
				;
			if (i < u->n && (!strncasecmp(m, "error", 5) || !strncasecmp(m, "fatal", 5)) && !errs[i]) {
				errs[i] = one_line(m, mlen);
				hit++;
			} else if (i < u->n && !strncasecmp(m, "warning", 7) && !warns[i])
				warns[i] = one_line(m, mlen);
		}
		l += len + (l[len] == '\n');
	}
	return hit;
}

/* Names in "a,b" (one being a Mach-O "SEG,sect" name's sect part matches too). */
static const struct obj_section *find_section(const struct obj *o, const char *names)
{
	char *copy = xstrdup(names);
	const struct obj_section *found = NULL;
	for (char *t = strtok(copy, ","); t && !found; t = strtok(NULL, ",")) {
		while (*t == ' ')
			t++;
		for (size_t i = 0; i < o->nsections && !found; i++) {
			const char *n = o->sections[i].name, *c = strchr(n, ',');
			if (!strcmp(n, t) || (c && !strcmp(c + 1, t)))
				found = &o->sections[i];
		}
	}
	free(copy);
	return found;
}

static int contains(const uint8_t *hay, size_t n, const uint8_t *needle, size_t k)
{
	for (size_t i = 0; k <= n && i <= n - k; i++)
		if (!memcmp(hay + i, needle, k))
			return 1;
	return 0;
}

/* What explain shows: the run that decided the verdict. */
static void keep_run(struct verdict *v, const struct unit *u)
{
	free(v->cmd);
	free(v->stderr_text);
	free(v->source);
	v->cmd = argv_join(u->argv.v);
	v->stderr_text = xstrdup(u->job.r.err);
	v->source = xstrdup(u->text);
}

static void verdicts_free(struct probe *p)
{
	for (size_t i = 0; p->v && i < p->cat.n; i++) {
		struct verdict *v = &p->v[i];
		free(v->reason); free(v->cmd); free(v->stderr_text); free(v->source); free(v->got);
	}
	free(p->v);
	p->v = NULL;
}

/* The verdict for snippet f after a run that exited 0. */
static void decide(struct ctx *x, size_t fi, const struct obj *o, const char *warn,
                   const char *general, const struct unit *u, struct verdict *v)
{
	const struct feature *f = &x->p->cat.f[fi];
	struct buf why = {0};
	const uint8_t *got = NULL;
	size_t ngot = 0;
	int ok = 0, located = 0;
	if (f->section) {
		const struct obj_section *s = find_section(o, f->section);
		if (!s)
			buf_printf(&why, "exited 0 but wrote no %s section", f->section);
		else {
			located = 1;
			got = s->data;
			ngot = s->data ? s->size : 0;
			if (f->expect_nonempty)
				ok = ngot > 0;
			for (size_t k = 0; k < f->nexpect && !ok; k++)
				ok = contains(got, ngot, f->expect[k].b, f->expect[k].n);
			if (!ok && !ngot)
				buf_printf(&why, "exited 0 but section %s is empty", s->name);
			else if (!ok) {
				buf_printf(&why, "section %s holds ", s->name);
				hex(&why, got, ngot > 48 ? 48 : ngot);
				buf_puts(&why, ngot > 48 ? " ...; expected " : "; expected ");
				hex(&why, f->expect[0].b, f->expect[0].n);
			}
		}
	} else {
		char bn[48], en[48];
		snprintf(bn, sizeof bn, "asmcap_b_%zu", fi);
		snprintf(en, sizeof en, "asmcap_e_%zu", fi);
		const struct obj_symbol *b = obj_symbol_named(o, bn), *e = obj_symbol_named(o, en);
		if (!b || !e || b->section < 0 || b->section != e->section || e->value < b->value ||
		    (size_t)b->section >= o->nsections)
			buf_puts(&why, "exited 0 but the object holds no code for it");
		else {
			const struct obj_section *s = &o->sections[b->section];
			if (!s->data || e->value > s->size)
				buf_puts(&why, "exited 0 but the object holds no code for it");
			else {
				located = 1;
				got = s->data + b->value;
				ngot = e->value - b->value;
				for (size_t k = 0; k < f->nexpect && !ok; k++)
					ok = f->expect[k].n == ngot && !memcmp(f->expect[k].b, got, ngot);
				if (!ok && !ngot)
					buf_puts(&why, "exited 0 but assembled it to nothing");
				else if (!ok) {
					buf_puts(&why, "mis-encoded: got ");
					hex(&why, got, ngot);
					buf_puts(&why, ", expected ");
					hex(&why, f->expect[0].b, f->expect[0].n);
				}
			}
		}
	}
	if (warn)
		buf_printf(&why, "%sassembler warned: %s", why.n ? "; " : "", warn);
	else if (!ok && general)
		buf_printf(&why, "; it said: %s", general);
	if (!ok && !why.n)
		buf_puts(&why, "bytes not found");
	set_verdict(v, ok ? ST_YES : ST_BROKEN, why.s ? why.s : xstrdup(""), u->job.r.ms);
	free(v->got);
	v->got = NULL;
	v->ngot = ngot;
	v->have_got = located;
	if (ngot) {
		v->got = malloc(ngot);
		memcpy(v->got, got, ngot);
	}
	keep_run(v, u);
}

static void record_failure(struct ctx *x, size_t fi, const struct unit *u, const char *msg)
{
	struct verdict *v = &x->p->v[fi];
	set_verdict(v, ST_NO, xprintf("rejected: %s", msg), u->job.r.ms);
	keep_run(v, u);
	v->have_got = 0;
}

/* A run that could not tell us anything: not started, signal, timeout. */
static int hopeless(const struct unit *u, char *err, size_t errlen)
{
	const struct run_result *r = &u->job.r;
	if (u->job.start_failed && !r->not_found) {
		snprintf(err, errlen, "cannot run `%s': %s", u->argv.v[0], u->job.start_err);
		return 1;
	}
	if (r->not_found || r->signal || r->timed_out) {
		run_describe(u->argv.v, r, err, errlen);
		return 1;
	}
	return 0;
}

enum outcome { U_OK, U_FAILED, U_NOLINES, U_UNUSABLE };

/* Read the object of a run that exited 0. */
static int load_obj(const struct unit *u, uint8_t **buf, struct obj *o,
                    char *err, size_t errlen)
{
	char why[256];
	size_t len = 0;
	*buf = read_all(u->objpath, &len);
	if (!*buf) {
		char *cmd = argv_join(u->argv.v);
		snprintf(err, errlen, "`%s' exited 0 but wrote no object %s", cmd, u->obj);
		free(cmd);
		return -1;
	}
	if (obj_parse(o, *buf, len, why, sizeof why)) {
		char *cmd = argv_join(u->argv.v);
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
				hex(&b, o->sections[i].data, o->sections[i].size > 256 ? 256 : o->sections[i].size);
				fprintf(run_log, "#   %s: %s%s\n", o->sections[i].name, b.s,
				        o->sections[i].size > 256 ? " ..." : "");
				buf_free(&b);
			}
	}
	return 0;
}

static const char *arch_name(enum obj_arch a)
{
	return a == OBJ_ARCH_X86_64 ? "x86_64" : a == OBJ_ARCH_I386 ? "i386" : NULL;
}

/* What the object says about the target; -1 (err set) when it is no x86. */
static int learn_target(struct ctx *x, const struct obj *o, const struct unit *u, char *err, size_t errlen)
{
	const char *a = arch_name(o->arch);
	if (!a) {
		char *cmd = argv_join(u->argv.v);
		snprintf(err, errlen, "`%s' makes %s objects for a target asmcap has no catalog for (x86_64, i386)",
		         cmd, obj_format_name(o));
		free(cmd);
		return -1;
	}
	snprintf(x->p->arch, sizeof x->p->arch, "%s", a);
	snprintf(x->p->format, sizeof x->p->format, "%s", obj_format_name(o));
	if (want_cpp(x) && obj_symbol_named(o, "asmcap_m_seen")) {
		struct build_info *b = &x->p->build;
		const struct obj_symbol *s;
		memset(b, 0, sizeof *b);
		b->known = 1;
		if ((s = obj_symbol_named(o, "asmcap_m_cet")))
			b->cet_ibt = s->value & 1, b->cet_shstk = !!(s->value & 2);
		if ((s = obj_symbol_named(o, "asmcap_m_pic")))
			b->pic = (int)s->value;
		b->ilp32 = obj_symbol_named(o, "asmcap_m_ilp32") != NULL;
		b->apple = obj_symbol_named(o, "asmcap_m_apple") != NULL;
		b->win64 = obj_symbol_named(o, "asmcap_m_win64") != NULL;
	}
	const char *natural = !strcmp(x->p->way, "nasm") && o->format == OBJ_COFF ? "nasm" :
	                      o->format == OBJ_COFF ? "mingw64" : o->format == OBJ_MACHO ? "macosx" : "elf";
	const char *fl = x->o->flavour;
	if (!fl)
		snprintf(x->p->flavour, sizeof x->p->flavour, "%s", natural);
	else if (strcmp(fl, natural) && !(o->format == OBJ_COFF && !strcmp(fl, "mingw64")) && !x->warned++)
		fprintf(stderr, "asmcap: warning: --flavour %s, but this toolchain makes %s objects\n", fl,
		        obj_format_name(o));
	return 0;
}

static enum outcome unit_eval(struct ctx *x, struct unit *u, struct obj *o, uint8_t **objbuf,
                              char *err, size_t errlen)
{
	const struct run_result *r = &u->job.r;
	if (hopeless(u, err, errlen))
		return U_UNUSABLE;
	char **errs = calloc(u->n + 1, sizeof *errs), **warns = calloc(u->n + 1, sizeof *warns);
	char *general = NULL;
	size_t hit = blame(u, r->err, errs, warns, &general);
	enum outcome out = U_OK;
	if (r->status == 0) {
		if (load_obj(u, objbuf, o, err, errlen) || learn_target(x, o, u, err, errlen))
			out = U_UNUSABLE;
		else
			for (size_t i = 0; i < u->n; i++)
				decide(x, u->f[i], o, warns[i], general, u, &x->p->v[u->f[i]]);
	} else if (hit) {
		for (size_t i = 0; i < u->n; i++)
			if (errs[i])
				record_failure(x, u->f[i], u, errs[i]);
		out = U_FAILED;
	} else
		out = U_NOLINES;
	for (size_t i = 0; i < u->n; i++)
		free(errs[i]), free(warns[i]);
	free(errs);
	free(warns);
	free(general);
	return out;
}

/* ---- identity, build section, dependencies ---- */

static char *first_line(const char *s)
{
	while (*s == '\n')
		s++;
	return one_line(s, strlen(s));
}

static void parse_defines(struct build_info *b, const char *text)
{
	memset(b, 0, sizeof *b);
	b->known = 1;
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		char name[64];
		long val = 1;
		if (sscanf(l, "#define %63s %ld", name, &val) < 1)
			continue;
		if (!strcmp(name, "__CET__"))
			b->cet_ibt = !!(val & 1), b->cet_shstk = !!(val & 2);
		else if (!strcmp(name, "__PIC__"))
			b->pic = (int)val;
		else if (!strcmp(name, "__ILP32__"))
			b->ilp32 = 1;
		else if (!strcmp(name, "__APPLE__"))
			b->apple = 1;
		else if (!strcmp(name, "_WIN64"))
			b->win64 = 1;
	}
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
		struct strv w = {0};
		char e[64], *full = malloc(len + 1), *prog = NULL;
		memcpy(full, l, len);
		full[len] = 0;
		/* command lines start with a space and name a program */
		if (line[0] == ' ' && !split_words(full, &w, e, sizeof e) && w.n && (prog = path_lookup(w.v[0]))) {
			deps_add_program(&p->deps, prog);
			int cc1as = 0;
			for (size_t i = 1; i < w.n; i++)
				cc1as |= !strcmp(w.v[i], "-cc1as");
			free(as);
			free(as_version);
			as_version = NULL;
			as = cc1as ? NULL : xstrdup(w.v[0]);
			*integrated = cc1as;
		}
		free(prog);
		free(full);
		strv_free(&w);
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

static int load_catalog(struct ctx *x, const char *arch, char *err, size_t errlen)
{
	struct probe *p = x->p;
	verdicts_free(p);
	catalog_free(&p->cat);
	int r = x->o->templates ? catalog_load_dir(&p->cat, x->o->templates, arch, err, errlen)
	                        : catalog_load_builtin(&p->cat, arch, err, errlen);
	if (r)
		return 2;
	p->v = calloc(p->cat.n + 1, sizeof *p->v);
	snprintf(p->arch, sizeof p->arch, "%s", arch);
	return 0;
}

/* Which features run, given the object format; others get their verdict now. */
static int plan(struct ctx *x, enum obj_format fmt, size_t *run, size_t *nrun, char *err, size_t errlen)
{
	struct probe *p = x->p;
	size_t n = p->cat.n;
	unsigned char *want = calloc(n + 1, 1), *off = calloc(n + 1, 1), *envoff = calloc(n + 1, 1);
	int r = 0;
	if (x->o->features) {
		if (feature_list(&p->cat, x->o->features, want, "--features", err, errlen))
			r = 2;
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
			set_verdict(v, ST_SKIPPED, xstrdup("not in --features"), 0);
		else if (off[i] || envoff[i])
			set_verdict(v, ST_DISABLED, xprintf("disabled by %s", off[i] ? "--disable" : "ASMCAP_DISABLE"), 0);
		else if (!(f->formats & (1u << fmt)))
			set_verdict(v, ST_SKIPPED, xprintf("not for %s objects", fmt == OBJ_ELF ? "ELF" : fmt == OBJ_COFF ? "COFF" : "Mach-O"), 0);
		else if (!strcmp(p->way, "nasm") && (f->nasm_none || !f->nasm_body))
			set_verdict(v, ST_SKIPPED, xstrdup(f->nasm_none ? "nasm has no syntax for it" : "the catalog has no nasm form of it"), 0);
		else
			run[(*nrun)++] = i;
	}
	free(want);
	free(off);
	free(envoff);
	return r;
}

/* Features whose `section:` another feature in the same run also names
 * cannot be told apart in one object: they get runs of their own. */
static size_t split_shared_sections(struct probe *p, size_t *run, size_t *n, size_t *alone)
{
	size_t nalone = 0, k = 0;
	for (size_t i = 0; i < *n; i++) {
		const struct feature *f = &p->cat.f[run[i]];
		int shared = 0;
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
		return !strcmp(fl, "macosx") ? OBJ_MACHO : !strcmp(fl, "mingw64") || !strcmp(fl, "nasm") ? OBJ_COFF : OBJ_ELF;
	if (!strcmp(x->p->way, "nasm"))
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

static int prepare(struct ctx *x, struct unit *u, const size_t *f, size_t n, char *err, size_t errlen)
{
	unit_init(x, u, f, n);
	u->text = unit_source(x, u);
	return write_file(x->dir, u->src, u->text, err, errlen) ? 3 : 0;
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

/* An empty source: can the toolchain assemble anything at all?  Also what
 * the target is when the catalog run failed.  0, or 3 with err. */
static int empty_run(struct ctx *x, char *err, size_t errlen)
{
	struct unit u;
	int r = prepare(x, &u, NULL, 0, err, errlen);
	if (!r) {
		run_jobs(&u.job, 1, 1);
		const struct run_result *rr = &u.job.r;
		if (hopeless(&u, err, errlen))
			r = 3;
		else if (rr->status) {
			char *cmd = argv_join(u.argv.v), *msg = first_line(rr->err[0] ? rr->err : rr->out);
			char flag[256];
			if (unused_flag(rr->err, flag, sizeof flag)) {
				snprintf(err, errlen, "`%s' cannot assemble an empty file: the compiler calls the flag %s unused here%s",
				         cmd, flag, want_cpp(x) ? "; pass assembler flags with --asflags and leave out the rest"
				         : " (in --mode s no preprocessor runs); pass assembler flags with --asflags, or use --mode S");
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
				if (learn_target(x, &o, &u, err, errlen))
					r = 3;
				obj_free(&o);
				free(buf);
			}
		}
	}
	unit_free(&u);
	return r;
}

/* The first line that says error or fatal, else the first line. */
static char *error_line(const char *text)
{
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		size_t len = strcspn(l, "\n");
		char *line = one_line(l, len);
		if (strstr(line, "rror") || strstr(line, "fatal"))
			return line;
		free(line);
	}
	return first_line(text);
}

/* One run per feature, --jobs at a time. */
static int run_singly(struct ctx *x, const size_t *f, size_t n, char *err, size_t errlen)
{
	struct unit *u = calloc(n + 1, sizeof *u);
	struct run_job *jobs = calloc(n + 1, sizeof *jobs);
	int r = 0;
	for (size_t i = 0; i < n && !r; i++)
		r = prepare(x, &u[i], &f[i], 1, err, errlen);
	if (!r) {
		for (size_t i = 0; i < n; i++)
			jobs[i] = u[i].job;
		run_jobs(jobs, n, x->o->jobs);
		x->p->nruns += n;
		for (size_t i = 0; i < n; i++)
			u[i].job = jobs[i];
	}
	for (size_t i = 0; i < n && !r; i++) {
		struct obj o;
		uint8_t *buf = NULL;
		enum outcome out = unit_eval(x, &u[i], &o, &buf, err, errlen);
		if (out == U_UNUSABLE)
			r = 3;
		else if (out == U_OK) {
			obj_free(&o);
			free(buf);
		} else if (out == U_NOLINES) {
			char *msg = error_line(u[i].job.r.err[0] ? u[i].job.r.err : u[i].job.r.out);
			if (!*msg) {
				free(msg);
				msg = xprintf("exit status %d", u[i].job.r.status);
			}
			record_failure(x, f[i], &u[i], msg);
			free(msg);
		}
	}
	for (size_t i = 0; i < n; i++)
		unit_free(&u[i]);
	free(u);
	free(jobs);
	return r;
}

static int probe_catalog(struct ctx *x, char *err, size_t errlen)
{
	struct probe *p = x->p;
	const char *guess = "x86_64";
	enum obj_format fmt = format_guess(x);
	struct strv dm = {0}, ver = {0};
	struct run_job jobs[2];
	size_t naux = 0;
	int r = 0, integrated = 0, first = 1;
	char *as_prog = NULL;
	memset(jobs, 0, sizeof jobs);
	x->verbose = !x->o->exact;

	for (int attempt = 0; attempt < 3; attempt++) {
		if ((r = load_catalog(x, guess, err, errlen)))
			break;
		size_t *run = calloc(p->cat.n + 1, sizeof *run), *alone = calloc(p->cat.n + 1, sizeof *alone);
		size_t nrun, nalone;
		if ((r = plan(x, fmt, run, &nrun, err, errlen))) {
			free(run); free(alone);
			break;
		}
		nalone = split_shared_sections(p, run, &nrun, alone);
		struct unit u;
		if ((r = prepare(x, &u, run, nrun, err, errlen))) {
			free(run); free(alone);
			break;
		}
		/* The first catalog run goes out together with the queries that
		 * need no result of it: with --cc it runs with -v (identity, the
		 * programs the driver runs, `as -v'), and in --mode s, where no
		 * preprocessor sees the source, beside `-dM -E'. */
		jobs[0] = u.job;
		naux = 0;
		if (first && !strcmp(p->way, "cc") && !want_cpp(x)) {
			strv_append(&dm, &p->argv);
			strv_append(&dm, &x->cflags);
			const char *d[] = {"-dM", "-E", "-x", "c", "/dev/null", NULL};
			for (const char **s = d; *s; s++)
				strv_push(&dm, *s);
			jobs[1].argv = dm.v;
			naux = 1;
		} else if (first && strcmp(p->way, "cc")) {
			strv_append(&ver, &p->argv);
			strv_push(&ver, "--version");
			jobs[1].argv = ver.v;
			naux = 1;
		}
		run_jobs(jobs, 1 + naux, 0);
		p->nruns++;
		u.job = jobs[0];
		if (first && !strcmp(p->way, "cc")) {
			as_prog = parse_driver(p, u.job.r.err, &integrated);
			if (naux && jobs[1].r.exited && jobs[1].r.status == 0)
				parse_defines(&p->build, jobs[1].r.out);
			else if (naux && !hopeless(&u, err, errlen)) {
				char *cmd = argv_join(dm.v), *msg = first_line(jobs[1].r.err);
				fprintf(stderr, "asmcap: warning: `%s' failed (%s): the build section stays unknown\n", cmd, msg);
				free(cmd);
				free(msg);
			}
		} else if (first && naux && jobs[1].r.exited && jobs[1].r.status == 0)
			p->assembler = first_line(jobs[1].r.out[0] ? jobs[1].r.out : jobs[1].r.err);
		if (first && naux)
			run_result_free(&jobs[1].r);
		first = 0;

		struct obj o;
		uint8_t *buf = NULL;
		enum outcome out = unit_eval(x, &u, &o, &buf, err, errlen);
		size_t left = nrun;
		/* Snippets rejected by line: run the others again, a few times at most. */
		for (int again = 0; out == U_FAILED && again < 4; again++) {
			size_t k = 0;
			for (size_t i = 0; i < left; i++)
				if (p->v[run[i]].st != ST_NO)
					run[k++] = run[i];
			left = k;
			unit_free(&u);
			if ((r = prepare(x, &u, run, left, err, errlen)))
				break;
			run_jobs(&u.job, 1, 1);
			p->nruns++;
			out = unit_eval(x, &u, &o, &buf, err, errlen);
		}
		if (r) {
			free(run); free(alone);
			break;
		}
		if (out == U_UNUSABLE)
			r = 3;
		else if (out == U_NOLINES || out == U_FAILED) {
			/* Nothing to blame by line: is the toolchain usable at all? */
			r = empty_run(x, err, errlen);
			p->nruns++;
		} else {
			obj_free(&o);
			free(buf);
		}
		unit_free(&u);
		if (!r && (strcmp(p->arch, guess) || format_of(p->format) != fmt)) {
			/* The object says another target than the plan assumed. */
			guess = p->arch[0] == 'i' ? "i386" : "x86_64";
			fmt = format_of(p->format);
			free(run); free(alone);
			continue;
		}
		if (!r && (out == U_NOLINES || out == U_FAILED)) {
			size_t k = 0;
			for (size_t i = 0; i < left; i++)
				if (p->v[run[i]].st != ST_NO)
					run[k++] = run[i];
			r = run_singly(x, run, k, err, errlen);
		}
		if (!r && nalone)
			r = run_singly(x, alone, nalone, err, errlen);
		free(run); free(alone);
		break;
	}
	if (!r && as_prog && !integrated && !p->assembler) {
		struct strv av = {0};
		struct run_result rr;
		char e[256];
		strv_push(&av, as_prog);
		strv_push(&av, "--version");
		if (!run_cmd(av.v, NULL, 0, &rr, e, sizeof e) && rr.exited && rr.status == 0)
			p->assembler = first_line(rr.out);
		run_result_free(&rr);
		strv_free(&av);
	} else if (!r && integrated && p->identity)
		p->assembler = xprintf("integrated assembler of %s", p->identity);
	free(as_prog);
	strv_free(&dm);
	strv_free(&ver);
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
	for (size_t i = 0; i < p->argv.n; i++) {
		/* every word of a launcher command that is a program: `ccache gcc' */
		char *w = path_lookup(p->argv.v[i]);
		if (w)
			deps_add_program(&p->deps, w);
		free(w);
	}
	if (!p->path) {
		char *cmd = argv_join(p->argv.v);
		snprintf(err, errlen, "`%s': %s not found or not executable", cmd, p->argv.v[0]);
		free(cmd);
		strv_free(&x.cflags);
		strv_free(&x.asflags);
		return 3;
	}
	x.dir = tmpdir_path();
	int r = x.dir ? probe_catalog(&x, err, errlen) : (snprintf(err, errlen, "no temp dir"), 3);
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
