/* SPDX-License-Identifier: MIT */
/* One template: its header's "# key: value" lines (the keys every folder
 * has here, the others through the folder's dialect and module tables,
 * struct cat_keys) and its snippet, with the line where a directive
 * leaves the assembler changed for what follows. */
#include "arch.h"
#include "catalog.h"
#include "obj.h"
#include "template.h"
#include "xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void template_free(struct feature *f)
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
unsigned template_body_state(const char *body, unsigned line, const char *arch)
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
	f->state_line = template_body_state(f->body, f->body_line, h->arch);
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

int template_parse(struct feature *f, const char *path, const char *name,
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
		template_free(f);
		return -1;
	}
	return 0;
}
