/* SPDX-License-Identifier: MIT */
/* The catalog of one architecture: its folder's files, from the built-in
 * table or a --templates directory, with the added directories layered
 * over them, each .s read by one parser (template.c) whatever it came
 * from; then the checks over all of them (variables, requires). */
#include "catalog.h"
#include "file.h"
#include "out.h"
#include "template.h"
#include "xalloc.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* path relative to its catalog root (root: where it came from, for
 * messages); owned: read from a directory (freed), not the built-in table;
 * added: from an added directory. */
struct src { char *path, *text; const char *root; int owned, added; };

/* Directories of additions and overrides, in the order given: the
 * environment's list first, then each --add-templates.  Process-wide, so
 * that every load of the catalog (each architecture, the cache key, list,
 * explain, audit) sees the same catalog. */
static const char **added_dirs;
static size_t nadded_dirs;

void catalog_add_dir(const char *dir)
{
	added_dirs = xrealloc(added_dirs, (nadded_dirs + 1) * sizeof *added_dirs);
	added_dirs[nadded_dirs++] = dir;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

uint64_t catalog_fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct feature *)a)->name, ((const struct feature *)b)->name);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct src *)a)->path, ((const struct src *)b)->path);
}

/* The variables a probe's build-facing outputs write besides the
 * features' own (report_vars), and the families other subcommands write
 * into the same builds: no feature may become one of them. */
static const struct reserved { const char *var, *what; int prefix; } reserved[] = {
	{"ASMCAP_ARCH", "the target architecture", 0},
	{"ASMCAP_FORMAT", "the object format", 0},
	{"ASMCAP_FLAVOUR", "the flavour", 0},
	{"ASMCAP_BUILD_", "the build facts ASMCAP_BUILD_*", 1},
	{"ASMCAP_C_", "cc-probe's answers ASMCAP_C_*", 1},
	{"ASMCAP_CPU_", "cpu's answers ASMCAP_CPU_*", 1},
	{"ASMCAP_CFLAG_", "cc-flag's answers ASMCAP_CFLAG_*", 1},
	{"ASMCAP_CHOICE_", "choose's answers ASMCAP_CHOICE_*", 1},
};

/* One variable a feature writes: ASMCAP_<F>, or (flags) ASMCAP_<F>_FLAGS,
 * the answer without its `enable:' lines. */
/* kind: 0 the feature's answer, 1 its answer without `enable:', 2 its
 * enable spelling (VAR_KIND names them in messages) */
struct var { char *name; size_t f; int kind; };
static const char *const VAR_KIND[] = {"", " (its answer without `enable:')", " (its enable spelling)"};

static int by_var(const void *a, const void *b)
{
	const struct var *x = a, *y = b;
	int d = strcmp(x->name, y->name);
	return d ? d : x->f < y->f ? -1 : x->f > y->f;
}

static int reserved_var(const struct feature *f, const struct var *v, char *err, size_t errlen)
{
	for (size_t k = 0; k < sizeof reserved / sizeof *reserved; k++) {
		const struct reserved *r = &reserved[k];
		if (r->prefix ? !strncmp(v->name, r->var, strlen(r->var)) : !strcmp(v->name, r->var))
			return fail(err, errlen, "%s:1: feature `%s'%s becomes %s, which is %s: rename it", f->file,
			            f->name, VAR_KIND[v->kind], v->name, r->what);
	}
	return 0;
}

/* No two variables the outputs write may be one: adx.s and ADX.s, a-b and
 * a_b, or sha3-flags and sha3's _FLAGS (sha3-enable and its _ENABLE) would
 * all write the same name, and
 * sh or make keep whichever comes last.  Sorted, so neighbours collide. */
int catalog_check_vars(const struct catalog *c, char *err, size_t errlen)
{
	struct var *v = xcalloc(3 * c->n + 1, sizeof *v);
	size_t n = 0;
	int r = 0;
	for (size_t i = 0; i < c->n; i++) {
		char *var = out_var_name("ASMCAP_", c->f[i].name);
		if (c->f[i].nenable) {
			v[n++] = (struct var){xprintf("%s_FLAGS", var), i, 1};
			v[n++] = (struct var){xprintf("%s_ENABLE", var), i, 2};
		}
		v[n++] = (struct var){var, i, 0};
	}
	if (n)
		qsort(v, n, sizeof *v, by_var);
	for (size_t i = 0; i < n && !r; i++) {
		const struct feature *f = &c->f[v[i].f];
		r = reserved_var(f, &v[i], err, errlen);
		if (!r && i && !strcmp(v[i].name, v[i - 1].name))
			r = fail(err, errlen, "%s:1: feature `%s'%s and %s%s both become %s: rename one", f->file,
			         f->name, VAR_KIND[v[i].kind], c->f[v[i - 1].f].file, VAR_KIND[v[i - 1].kind], v[i].name);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return r;
}

/* Depth-first over requires: state 0 unvisited, 1 on the path, 2 done.
 * A feature met again while on the path closes a cycle. */
static int visit(const struct catalog *c, size_t i, unsigned char *state, size_t *path, size_t depth,
                 char *err, size_t errlen)
{
	const struct feature *f = &c->f[i];
	if (state[i] == 2)
		return 0;
	path[depth] = i;
	if (state[i] == 1) {
		size_t from = 0;
		while (path[from] != i)
			from++;
		struct buf b = {0};
		for (size_t k = from; k <= depth; k++)
			buf_printf(&b, "%s%s", k > from ? " -> " : "", c->f[path[k]].name);
		const struct feature *g = &c->f[path[depth - 1]];
		fail(err, errlen, "%s:%u: `requires' makes a cycle: %s", g->file, g->requires_line, b.s);
		buf_free(&b);
		return -1;
	}
	state[i] = 1;
	for (size_t k = 0; k < f->nrequires; k++) {
		const struct feature *r = catalog_find(c, f->requires[k]);
		if (!r)
			return fail(err, errlen, "%s:%u: requires unknown feature `%s'", f->file,
			            f->requires_line, f->requires[k]);
		if (visit(c, (size_t)(r - c->f), state, path, depth + 1, err, errlen))
			return -1;
	}
	state[i] = 2;
	return 0;
}

/* Every required feature exists and requires never loops (a feature
 * requiring itself included): "usable" is computed by following them. */
static int check_requires(const struct catalog *c, char *err, size_t errlen)
{
	unsigned char *state = xcalloc(c->n + 1, 1);
	size_t *path = xcalloc(c->n + 2, sizeof *path);
	int r = 0;
	for (size_t i = 0; i < c->n && !r; i++)
		r = visit(c, i, state, path, 0, err, errlen);
	free(state);
	free(path);
	return r;
}

/* srcs: every file of this arch ("x86_64/adx.s", "x86_64/adx.nasm"), each
 * with the root it came from.  The hash covers every text, so a changed
 * added template changes it (and with it the cache key). */
static int build(struct catalog *c, struct src *srcs, size_t n, const char *arch,
                 char *err, size_t errlen)
{
	uint64_t h = CATALOG_FNV_INIT;
	memset(c, 0, sizeof *c);
	if (n)
		qsort(srcs, n, sizeof *srcs, by_path);
	for (size_t i = 0; i < n; i++) {
		h = catalog_fnv(catalog_fnv(h, srcs[i].path), srcs[i].text);
		size_t len = strlen(srcs[i].path);
		if (len < 3 || strcmp(srcs[i].path + len - 2, ".s"))
			continue;
		const char *base = srcs[i].path + strlen(arch) + 1;
		char *name = xstrndup(base, strlen(base) - 2), full[4096];
		snprintf(full, sizeof full, "%s/%s", srcs[i].root, srcs[i].path);
		c->f = xrealloc(c->f, (c->n + 1) * sizeof *c->f);
		/* `.s' would be ASMCAP_ and `...s' a feature `..' */
		int r = !isalnum((unsigned char)name[0]) ?
		        fail(err, errlen, "%s:1: the feature name `%s' (the file name) must start with a letter or digit",
		             full, name) :
		        template_parse(&c->f[c->n], full, name, arch, srcs[i].text, err, errlen);
		if (!r) {
			struct feature *f = &c->f[c->n++];
			char nasm[4096], masm[4096];
			f->file = xstrdup(full);
			f->added = srcs[i].added;
			snprintf(nasm, sizeof nasm, "%s/%s.nasm", arch, name);
			snprintf(masm, sizeof masm, "%s/%s.masm", arch, name);
			for (size_t k = 0; k < n; k++)
				if (!strcmp(srcs[k].path, nasm)) {
					f->nasm_body = xstrdup(srcs[k].text);
					f->nasm_state_line = template_body_state(f->nasm_body, 1, arch);
				} else if (!strcmp(srcs[k].path, masm))
					f->masm_body = xstrdup(srcs[k].text);
			f->masm_state_line = f->masm_body ? template_body_state(f->masm_body, 1, arch) : f->nasm_state_line;
		}
		free(name);
		if (r) {
			catalog_free(c);
			return -1;
		}
	}
	if (c->n)
		qsort(c->f, c->n, sizeof *c->f, by_name);
	if (catalog_check_vars(c, err, errlen) || check_requires(c, err, errlen)) {
		catalog_free(c);
		return -1;
	}
	snprintf(c->hash, sizeof c->hash, "%016llx", (unsigned long long)h);
	return 0;
}

/* A catalog file: the .s template or a body for nasm or MASM beside it. */
static int template_file(const char *name)
{
	size_t n = strlen(name);
	return (n > 2 && !strcmp(name + n - 2, ".s")) || (n > 5 && !strcmp(name + n - 5, ".nasm")) ||
	       (n > 5 && !strcmp(name + n - 5, ".masm"));
}

static int wanted(const char *path, const char *arch)
{
	size_t a = strlen(arch);
	if (strncmp(path, arch, a) || path[a] != '/' || strchr(path + a + 1, '/'))
		return 0;
	return template_file(path);
}

static char *slurp(const char *path, char *err, size_t errlen)
{
	size_t n;
	char *b = (char *)file_read(path, &n);
	if (!b) {
		fail(err, errlen, "%s: %s", path, file_error());
		return NULL;
	}
	if (strlen(b) != n) {
		unsigned line = 1;
		for (const char *q = b; *q; q++)
			line += *q == '\n';
		free(b);
		fail(err, errlen, "%s:%u: contains a NUL byte", path, line);
		return NULL;
	}
	return b;
}

/* Append DIR/<arch>/'s templates to *s.  A missing folder is an error for
 * a --templates tree; an added directory may hold some architectures only. */
static int read_dir(const char *dir, const char *arch, int added, struct src **s, size_t *n,
                    char *err, size_t errlen)
{
	char sub[4096];
	snprintf(sub, sizeof sub, "%s/%s", dir, arch);
	DIR *d = opendir(sub);
	if (!d)
		return added && errno == ENOENT ? 0 : fail(err, errlen, "templates directory %s: %s", sub, strerror(errno));
	struct dirent *e;
	int r = 0;
	while (!r && (e = readdir(d))) {
		char rel[4096], full[8192];
		snprintf(rel, sizeof rel, "%s/%s", arch, e->d_name);
		if (!wanted(rel, arch))
			continue;
		snprintf(full, sizeof full, "%s/%s", dir, rel);
		char *text = slurp(full, err, errlen);
		if (!text)
			r = -1;
		else {
			*s = xrealloc(*s, (*n + 1) * sizeof **s);
			(*s)[(*n)++] = (struct src){xstrdup(rel), text, dir, 1, added};
		}
	}
	closedir(d);
	return r;
}

/* "x86_64/adx.s", "x86_64/adx.nasm" and "x86_64/adx.masm" belong to the same feature. */
static int same_feature(const char *a, const char *b)
{
	size_t la = (size_t)(strrchr(a, '.') - a), lb = (size_t)(strrchr(b, '.') - b);
	return la == lb && !strncmp(a, b, la);
}

/* An added directory must exist and hold its templates in <arch>/
 * folders like the catalog: a template at its top would be silently
 * ignored otherwise. */
static int check_added_root(const char *dir, const char *arch, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d)
		return fail(err, errlen, "added templates directory %s: %s", dir, strerror(errno));
	struct dirent *e;
	int r = 0;
	while (!r && (e = readdir(d))) {
		if (template_file(e->d_name))
			r = fail(err, errlen, "%s/%s: added templates go in an architecture folder (%s/%s/%s)",
			         dir, e->d_name, dir, arch, e->d_name);
	}
	closedir(d);
	return r;
}

/* One added directory over what is loaded so far: each feature it names
 * replaces every earlier file of that name, .s, .nasm and .masm together (a
 * new AT&T body must not keep the old nasm one), so a .nasm or .masm needs
 * its .s. */
static int add_layer(struct src **s, size_t *n, const char *dir, const char *arch, char *err, size_t errlen)
{
	size_t from = *n, kept = 0;
	if (check_added_root(dir, arch, err, errlen) || read_dir(dir, arch, 1, s, n, err, errlen))
		return -1;
	for (size_t k = from; k < *n; k++) {
		const char *p = (*s)[k].path;
		const char *ext = strrchr(p, '.');
		int paired = !strcmp(ext, ".s");
		for (size_t j = from; j < *n && !paired; j++)
			paired = j != k && same_feature(p, (*s)[j].path);
		if (!paired)
			return fail(err, errlen, "%s/%s:1: a %s file needs its .s beside it (an added "
			            "feature replaces all of the catalog's files of that name)", dir, p, ext);
	}
	for (size_t i = 0; i < *n; i++) {
		int replaced = 0;
		for (size_t k = from; i < from && k < *n && !replaced; k++)
			replaced = same_feature((*s)[i].path, (*s)[k].path);
		if (replaced && (*s)[i].owned) {
			free((*s)[i].path);
			free((*s)[i].text);
		}
		if (!replaced)
			(*s)[kept++] = (*s)[i];
	}
	*n = kept;
	return 0;
}

static void free_srcs(struct src *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].owned) {
			free(s[i].path);
			free(s[i].text);
		}
	free(s);
}

/* The base files s[0..n) with the added directories layered over them
 * ($ASMCAP_ADD_TEMPLATES, ':'-separated, first; then each --add-templates;
 * later ones win), built into c.  Frees s. */
static int layer_and_build(struct catalog *c, struct src *s, size_t n, const char *arch, char *err, size_t errlen)
{
	const char *env = getenv("ASMCAP_ADD_TEMPLATES");
	char *copy = xstrdup(env ? env : ""), *save;
	int r = 0;
	memset(c, 0, sizeof *c);
	for (char *d = strtok_r(copy, ":", &save); d && !r; d = strtok_r(NULL, ":", &save))
		r = add_layer(&s, &n, d, arch, err, errlen);
	for (size_t i = 0; i < nadded_dirs && !r; i++)
		r = add_layer(&s, &n, added_dirs[i], arch, err, errlen);
	if (!r)
		r = build(c, s, n, arch, err, errlen);
	free_srcs(s, n);
	free(copy);
	return r;
}

int catalog_load_builtin(struct catalog *c, const char *arch, char *err, size_t errlen)
{
	struct src *s = xcalloc(catalog_nfiles + 1, sizeof *s);
	size_t n = 0;
	for (size_t i = 0; i < catalog_nfiles; i++)
		if (wanted(catalog_files[i].path, arch))
			s[n++] = (struct src){(char *)catalog_files[i].path, (char *)catalog_files[i].text,
			                      "templates", 0, 0};
	return layer_and_build(c, s, n, arch, err, errlen);
}

int catalog_load_dir(struct catalog *c, const char *dir, const char *arch, char *err, size_t errlen)
{
	struct src *s = NULL;
	size_t n = 0;
	if (read_dir(dir, arch, 0, &s, &n, err, errlen)) {
		memset(c, 0, sizeof *c);
		free_srcs(s, n);
		return -1;
	}
	return layer_and_build(c, s, n, arch, err, errlen);
}

int catalog_load(struct catalog *c, const char *dir, const char *arch, char *err, size_t errlen)
{
	return dir ? catalog_load_dir(c, dir, arch, err, errlen) : catalog_load_builtin(c, arch, err, errlen);
}

const char *catalog_masm_body(const struct feature *f)
{
	return f->masm_none ? NULL : f->masm_body ? f->masm_body : f->nasm_body;
}

/* c->f is sorted by name: a walk over `requires' costs log n a step. */
const struct feature *catalog_find(const struct catalog *c, const char *name)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(c->f[mid].name, name);
		if (!d)
			return &c->f[mid];
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void catalog_free(struct catalog *c)
{
	for (size_t i = 0; i < c->n; i++)
		template_free(&c->f[i]);
	free(c->f);
	memset(c, 0, sizeof *c);
}
