/* SPDX-License-Identifier: MIT */
/* Catalog parser: one function reads a template text, whether it came
 * from the built-in table or from a --templates directory. */
#include "arch.h"
#include "catalog.h"
#include "file.h"
#include "obj.h"
#include "out.h"
#include "xalloc.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
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

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && strchr(" \t\r", s[n - 1]))
		s[--n] = 0;
	return s;
}

static int parse_hex_bytes(const char *v, struct cat_bytes *out)
{
	size_t n = 0, cap = strlen(v) / 2 + 1;
	uint8_t *b = xmalloc(cap);
	const char *p = v;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		/* exactly two hex digits: strtoul would take "+f" or "0x" */
		if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) ||
		    (p[2] && p[2] != ' ' && p[2] != '\t')) {
			free(b);
			return -1;
		}
		char two[3] = {p[0], p[1], 0};
		b[n++] = (uint8_t)strtoul(two, NULL, 16);
		p += 2;
	}
	if (!n) {
		free(b);
		return -1;
	}
	out->b = b;
	out->n = n;
	return 0;
}

int cat_number(const char *v, unsigned long long max, unsigned long long *out)
{
	char *end;
	if (!isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 0);
	if (*end || errno == ERANGE || x > max)
		return -1;
	*out = x;
	return 0;
}

static void split_list(const char *v, const char *seps, char ***out, size_t *n)
{
	char *copy = xstrdup(v);
	for (char *tok = strtok(copy, seps); tok; tok = strtok(NULL, seps)) {
		*out = xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = xstrdup(tok);
	}
	free(copy);
}

static void feature_free(struct feature *f)
{
	free(f->name); free(f->summary); free(f->since); free(f->cost);
	free(f->body); free(f->nasm_body); free(f->masm_body); free(f->section); free(f->file);
	for (size_t i = 0; i < f->nrequires; i++)
		free(f->requires[i]);
	free(f->requires);
	for (size_t i = 0; i < f->nexpect; i++)
		free(f->expect[i].b);
	for (size_t i = 0; i < f->nenable; i++)
		free(f->enable[i]);
	free(f->enable); free(f->as_flag);
	const struct cat_keys *t[CAT_KEYS_N] = {0};
	if (f->arch)            /* a feature moved out is zeroes (engine.c) */
		arch_catalog_keys(f->arch, t);
	for (int k = 0; k < CAT_KEYS_N; k++) {
		if (t[k] && t[k]->free && f->keyed[k])
			t[k]->free(f->keyed[k]);
		free(f->keyed[k]);
	}
	free(f->arch);
	memset(f, 0, sizeof *f);
}

/* Reading one template's header: each "# key: value" line goes to the
 * handler its key names in `fields` below. */
struct header {
	struct feature *f;
	const char *path, *name, *arch;     /* for messages and `feature:' */
	unsigned line;                      /* of the line being read */
	const struct cat_keys *keys[CAT_KEYS_N];    /* the folder's own keys */
	uint32_t seen;                      /* bit i: fields[i] met */
	uint32_t seen_keyed[CAT_KEYS_N];    /* bit i: keys[k]->keys[i] met */
	const struct field *field;          /* the line's key */
	char *err; size_t errlen;
};

/* The keys every folder has.  repeat: keys that may repeat list
 * alternatives (or add directives); any other given twice is an error,
 * not a silent override.  Keys of one dialect or module are theirs
 * (struct cat_keys): a cpuid: line in an aarch64 file would be silently
 * ignored by its CPU reader, so it is refused. */
struct field {
	const char *key;
	int (*set)(struct header *h, char *v);
	int repeat;
	size_t text;                        /* set_text's field */
};

/* An error at the current line: "PATH:LINE: " and the message. */
static int bad(const struct header *h, const char *fmt, ...)
{
	int n = snprintf(h->err, h->errlen, "%s:%u: ", h->path, h->line);
	if (n >= 0 && (size_t)n < h->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(h->err + n, h->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int set_feature(struct header *h, char *v)
{
	if (strcmp(v, h->name))
		return bad(h, "feature `%s' does not match the file name `%s'", v, h->name);
	h->f->name = xstrdup(v);
	return 0;
}

/* Free text (summary:, since:, ...): the field's offset in struct feature. */
static int set_text(struct header *h, char *v)
{
	*(char **)((char *)h->f + h->field->text) = xstrdup(v);
	return 0;
}

static int set_enable(struct header *h, char *v)
{
	struct feature *f = h->f;
	if (!*v)
		return bad(h, "empty `enable:' (want a directive, or several separated by `;')");
	/* h writes a spelling as a #define body, .S files use it as a line */
	for (const unsigned char *c = (const unsigned char *)v; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			return bad(h, "`enable:' holds byte 0x%02x (a spelling is printable ASCII)", *c);
		else if (*c == '\\' || *c == '#' || !strncmp((const char *)c, "/*", 2) ||
		         !strncmp((const char *)c, "*/", 2) || !strncmp((const char *)c, "//", 2))
			return bad(h, "`enable: %s' holds `%.2s' (a spelling has no \\, # or comments)", v, (const char *)c);
	if (f->nenable == 10)
		return bad(h, "more than ten `enable:' spellings");
	f->enable = xrealloc(f->enable, (f->nenable + 1) * sizeof *f->enable);
	f->enable[f->nenable++] = xstrdup(v);
	return 0;
}

/* One compiler flag, as a build passes it (`-Wa,-march=armv8.2-a'):
 * a word that starts with `-' and holds no blank. */
static int set_as_flag(struct header *h, char *v)
{
	if (v[0] != '-' || v[strcspn(v, " \t")])
		return bad(h, "bad as-flag `%s' (want one compiler flag such as `-Wa,-march=armv8.2-a')", v);
	h->f->as_flag = xstrdup(v);
	return 0;
}

static int set_requires(struct header *h, char *v)
{
	split_list(v, " \t,", &h->f->requires, &h->f->nrequires);
	h->f->requires_line = h->line;
	return 0;
}

static int set_expect(struct header *h, char *v)
{
	struct feature *f = h->f;
	if (!strcmp(v, "nonempty"))
		f->expect_nonempty = 1;
	else if (f->nexpect == CAT_MAX_ALT || parse_hex_bytes(v, &f->expect[f->nexpect]))
		return bad(h, "bad expect `%s' (want hex bytes like `0f 38 f6', or `nonempty'; at most %d lines)",
		           v, CAT_MAX_ALT);
	else
		f->nexpect++;
	return 0;
}

/* Replaces the default (every format); the first unknown name is the error. */
static int set_formats(struct header *h, char *v)
{
	static const char *const names[] = {[OBJ_ELF] = "elf", [OBJ_COFF] = "coff", [OBJ_MACHO] = "macho"};
	char **fm = NULL;
	size_t nf = 0;
	int r = 0;
	split_list(v, " \t,", &fm, &nf);
	h->f->formats = 0;
	for (size_t i = 0; i < nf; i++) {
		unsigned k = 0;
		while (k < sizeof names / sizeof *names && strcmp(fm[i], names[k]))
			k++;
		if (k < sizeof names / sizeof *names)
			h->f->formats |= 1u << k;
		else if (!r)
			r = bad(h, "unknown format `%s' (elf, coff, macho)", fm[i]);
		free(fm[i]);
	}
	free(fm);
	return r;
}

/* One row a header key: its handler, and whether it may repeat. */
static const struct field fields[] = {
	{.key = "feature", .set = set_feature},
	{.key = "summary", .set = set_text, .text = offsetof(struct feature, summary)},
	{.key = "since", .set = set_text, .text = offsetof(struct feature, since)},
	{.key = "cost", .set = set_text, .text = offsetof(struct feature, cost)},
	{.key = "section", .set = set_text, .text = offsetof(struct feature, section)},
	{.key = "enable", .set = set_enable, .repeat = 1},
	{.key = "as-flag", .set = set_as_flag},
	{.key = "requires", .set = set_requires},
	{.key = "expect", .set = set_expect, .repeat = 1},
	{.key = "formats", .set = set_formats},
};
#define NFIELDS (sizeof fields / sizeof *fields)
_Static_assert(NFIELDS <= 32, "struct header's seen has a bit per field");

/* Does some other folder's dialect or module read `key'? */
static int key_elsewhere(const char *key)
{
	for (const struct arch *const *a = arch_all; *a; a++) {
		const struct cat_keys *t[CAT_KEYS_N];
		arch_catalog_keys((*a)->name, t);
		for (int k = 0; k < CAT_KEYS_N; k++)
			for (const struct cat_key *e = t[k] ? t[k]->keys : NULL; e && e->key; e++)
				if (!strcmp(e->key, key))
					return 1;
	}
	return 0;
}

/* A key of the folder's dialect or module: its table's parser. */
static int keyed_field(struct header *h, const char *key, char *v)
{
	for (int k = 0; k < CAT_KEYS_N; k++) {
		const struct cat_key *e = h->keys[k] ? h->keys[k]->keys : NULL;
		for (unsigned i = 0; e && e[i].key && i < 32; i++) {     /* a seen bit each */
			if (strcmp(e[i].key, key))
				continue;
			if ((h->seen_keyed[k] >> i & 1) && !e[i].repeat)
				return bad(h, "`%s:' given twice", key);
			h->seen_keyed[k] |= 1u << i;
			char why[512] = "";
			return e[i].set(h->f, h->f->keyed[k], key, v, why, sizeof why) ? bad(h, "%s", why) : 0;
		}
	}
	return key_elsewhere(key) ? bad(h, "`%s:' does not apply to %s", key, h->arch)
	                          : bad(h, "unknown header key `%s'", key);
}

static int header_field(struct header *h, const char *key, char *v)
{
	size_t i = 0;
	while (i < NFIELDS && strcmp(fields[i].key, key))
		i++;
	if (i == NFIELDS)
		return keyed_field(h, key, v);
	const struct field *e = &fields[i];
	if ((h->seen >> i & 1) && !e->repeat)
		return bad(h, "`%s:' given twice", key);
	h->seen |= 1u << i;
	h->field = e;
	return e->set(h, v);
}

/* The "#" line at *p, moving *p past it: a key and its value, or a plain
 * comment (no colon, or a blank line). */
static int header_line(struct header *h, const char **p)
{
	const char *nl = strchr(*p, '\n');
	size_t len = nl ? (size_t)(nl - *p) : strlen(*p);
	char *l = xstrndup(*p + 1, len - 1), *colon = strchr(l, ':'), *key = trim(l);
	int r = 0;
	h->line++;
	*p += len + (nl != NULL);
	if (colon && *key) {
		*colon = 0;
		key = trim(key);
		r = header_field(h, key, trim(colon + 1));
	}
	free(l);
	return r;
}

/* Directives that change how the assembler reads what follows them, by
 * family, and the operands with which one puts its family back to the
 * default every catalog snippet assumes (`.arch' has no push/pop: nothing
 * puts it back).  A snippet that ends with a family changed must not share
 * a run: it would enable (`.arch .adx') or break (`.intel_syntax') the
 * snippets after it. */
enum family { FAM_ISA, FAM_SYNTAX, FAM_MNEMONIC, FAM_CODE, FAM_ARMMODE, FAM_MACRO, FAM_SET, FAM_OPTION,
              FAM_DEFINE, FAM_DEFAULT, FAM_COUNT };
static const struct state_dir {
	const char *name;
	enum family fam;
	const char *restore;    /* the operands that restore, '|'-separated (an empty one:
	                         * the bare directive; "FOLDER:" first: only in that
	                         * catalog folder); NULL: it never restores */
} state_dirs[] = {
	{".arch", FAM_ISA, NULL}, {".arch_extension", FAM_ISA, NULL}, {".cpu", FAM_ISA, NULL},
	{".fpu", FAM_ISA, NULL}, {".machine", FAM_ISA, NULL}, {".object_arch", FAM_ISA, NULL},
	{".intel_syntax", FAM_SYNTAX, NULL}, {".att_syntax", FAM_SYNTAX, "|prefix"},
	{".intel_mnemonic", FAM_MNEMONIC, NULL}, {".att_mnemonic", FAM_MNEMONIC, ""},
	{".code16", FAM_CODE, NULL}, {".code16gcc", FAM_CODE, NULL}, {".code32", FAM_CODE, "i386:"},
	{".code64", FAM_CODE, "x86_64:"},
	{".arm", FAM_ARMMODE, NULL}, {".thumb", FAM_ARMMODE, NULL}, {".code", FAM_ARMMODE, NULL},
	{".syntax", FAM_ARMMODE, NULL}, {".force_thumb", FAM_ARMMODE, NULL},
	{".altmacro", FAM_MACRO, NULL}, {".noaltmacro", FAM_MACRO, ""},
	{".set", FAM_SET, NULL},        /* only a mode (`.set noreorder'), not `.set sym, value' */
	{".option", FAM_OPTION, NULL},  /* push/pop counted apart */
	/* a macro defined here would be expanded in the snippets after it,
	 * unless the body purges it (state_macro counts them) */
	{".macro", FAM_DEFINE, NULL}, {".purgem", FAM_DEFINE, NULL},
	/* nasm bodies ([bits 32] written bare too) */
	{"bits", FAM_CODE, "x86_64:64|i386:32"}, {"use16", FAM_CODE, NULL}, {"use32", FAM_CODE, "i386:"},
	{"use64", FAM_CODE, "x86_64:"}, {"cpu", FAM_ISA, NULL}, {"default", FAM_DEFAULT, "abs"},
	{"%macro", FAM_DEFINE, NULL}, {"%imacro", FAM_DEFINE, NULL}, {"%define", FAM_DEFINE, NULL},
	{"%idefine", FAM_DEFINE, NULL}, {"%xdefine", FAM_DEFINE, NULL}, {"%ixdefine", FAM_DEFINE, NULL},
	{"%assign", FAM_DEFINE, NULL}, {"%iassign", FAM_DEFINE, NULL},
};

/* Does directive d with operands arg put its family back, in folder arch? */
static int restores(const struct state_dir *d, const char *arg, const char *arch)
{
	for (const char *r = d->restore; r; r++) {
		size_t n = strcspn(r, "|");
		const char *colon = memchr(r, ':', n), *want = colon ? colon + 1 : r;
		size_t nw = n - (size_t)(want - r);
		if ((!colon || ((size_t)(colon - r) == strlen(arch) && !strncmp(r, arch, strlen(arch)))) &&
		    strlen(arg) == nw && !strncasecmp(arg, want, nw))
			return 1;
		r += n;
		if (!*r)
			return 0;
	}
	return 0;
}

/* A body read statement by statement: the line each family was left
 * changed at (0: at its default), and the body's own `.option push'es. */
struct state_scan {
	const char *arch;
	unsigned changed[FAM_COUNT];
	int depth;
	unsigned push_line;             /* of the outermost push still open */
	unsigned macros;                /* GNU .macro definitions not purged */
};

/* state_macro: a `.macro' defines one more, a `.purgem' removes one; the
 * family is back at its default when none is left (a `.purgem' of a name
 * never defined is the assembler's own error). */
static void state_macro(struct state_scan *sc, int define, unsigned line)
{
	if (define && !sc->macros++ && !sc->changed[FAM_DEFINE])
		sc->changed[FAM_DEFINE] = line;
	else if (!define && sc->macros && !--sc->macros)
		sc->changed[FAM_DEFINE] = 0;
}

static void state_option(struct state_scan *sc, const char *arg, unsigned line)
{
	if (!strcasecmp(arg, "push")) {
		if (!sc->depth++)
			sc->push_line = line;
	} else if (!strcasecmp(arg, "pop")) {
		/* a pop below the body's own pushes undoes the probe's scope */
		if (--sc->depth < 0 && !sc->changed[FAM_OPTION])
			sc->changed[FAM_OPTION] = line;
	} else if (sc->depth <= 0 && !sc->changed[FAM_OPTION])
		sc->changed[FAM_OPTION] = line;         /* no pop of the body's own undoes it */
}

/* One statement s (trimmed, in place) at line. */
static void state_statement(struct state_scan *sc, char *s, unsigned line)
{
	size_t n = strlen(s);
	if (*s == '[' && n && s[n - 1] == ']') {
		s[n - 1] = 0;           /* nasm's [bits 32] */
		s = trim(s + 1);
	}
	n = strcspn(s, " \t,");
	for (size_t k = 0; k < sizeof state_dirs / sizeof *state_dirs; k++) {
		const struct state_dir *d = &state_dirs[k];
		if (strlen(d->name) != n || strncasecmp(s, d->name, n))
			continue;
		const char *arg = trim(s + n);
		if (d->fam == FAM_OPTION)
			state_option(sc, arg, line);
		else if (d->name[0] == '.' && d->fam == FAM_DEFINE)
			state_macro(sc, d->name[1] == 'm', line);
		else if (d->fam == FAM_SET && strpbrk(arg, ",="))
			;               /* a symbol's value, not a mode */
		else if (restores(d, arg, sc->arch))
			sc->changed[d->fam] = 0;
		else if (!sc->changed[d->fam])
			sc->changed[d->fam] = line;
		return;
	}
}

/* The first line of body (starting at file line `line') whose directive
 * leaves the assembler changed at its end, or 0.  Statements are split at
 * `;' as GNU as does; labels before a directive are skipped. */
static unsigned body_state(const char *body, unsigned line, const char *arch)
{
	static const char id[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$";
	struct state_scan sc = {.arch = arch};
	for (const char *p = body; *p; line++) {
		size_t len = strcspn(p, "\n");
		char *l = xstrndup(p, len), *save;
		for (char *st = strtok_r(l, ";", &save); st; st = strtok_r(NULL, ";", &save)) {
			char *t = trim(st);
			for (size_t n = strspn(t, id); n && t[n] == ':'; n = strspn(t, id))
				t = trim(t + n + 1);
			state_statement(&sc, t, line);
		}
		free(l);
		p += len + (p[len] == '\n');
	}
	unsigned first = sc.depth > 0 ? sc.push_line : 0;
	for (int f = 0; f < FAM_COUNT; f++)
		if (sc.changed[f] && (!first || sc.changed[f] < first))
			first = sc.changed[f];
	return first;
}

/* The snippet after the header, and the lines every template needs. */
static int take_body(struct header *h, const char *p)
{
	struct feature *f = h->f;
	f->body_line = h->line + 1;
	f->body = xstrdup(p);
	f->state_line = body_state(f->body, f->body_line, h->arch);
	const char *miss = !f->name ? "feature" : !f->nexpect && !f->expect_nonempty ? "expect" : NULL;
	if (!miss && f->expect_nonempty && !f->section)
		return bad(h, "`expect: nonempty' needs a `section:' line");
	/* the flag is the question: a directive would answer it instead */
	if (!miss && f->as_flag && f->nenable)
		return bad(h, "`as-flag:' and `enable:' together (the flag is the only enabling form)");
	if (!miss && !*trim(f->body))
		miss = "snippet body";
	if (!miss)
		return 0;
	h->line = f->body_line;
	return bad(h, "no `%s'%s", miss, strcmp(miss, "snippet body") ? " line" : "");
}

/* Parse one .s template.  `name` is the file's base name (the feature). */
static int parse_template(struct feature *f, const char *path, const char *name,
                          const char *arch, const char *text, char *err, size_t errlen)
{
	struct header h = {.f = f, .path = path, .name = name, .arch = arch, .err = err, .errlen = errlen};
	const char *p = text;
	memset(f, 0, sizeof *f);
	f->arch = xstrdup(arch);
	f->formats = ~0u;
	arch_catalog_keys(arch, h.keys);
	for (int k = 0; k < CAT_KEYS_N; k++)
		if (h.keys[k]) {
			f->keyed[k] = xcalloc(1, h.keys[k]->size ? h.keys[k]->size : 1);
			if (h.keys[k]->init)
				h.keys[k]->init(f->keyed[k]);
		}
	int r = 0;
	while (!r && *p == '#')
		r = header_line(&h, &p);
	if (r || take_body(&h, p)) {
		feature_free(f);
		return -1;
	}
	return 0;
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
		        parse_template(&c->f[c->n], full, name, arch, srcs[i].text, err, errlen);
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
					f->nasm_state_line = body_state(f->nasm_body, 1, arch);
				} else if (!strcmp(srcs[k].path, masm))
					f->masm_body = xstrdup(srcs[k].text);
			f->masm_state_line = f->masm_body ? body_state(f->masm_body, 1, arch) : f->nasm_state_line;
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

const char *masm_body_of(const struct feature *f)
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
		feature_free(&c->f[i]);
	free(c->f);
	memset(c, 0, sizeof *c);
}
