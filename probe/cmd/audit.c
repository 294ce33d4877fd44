/* SPDX-License-Identifier: MIT */
/* asmcap audit FILE... [--expect LIST] [--baseline OLD.json] [--format text|json] [--templates DIR]
 *
 * Which catalog features does built code really use?  Every function of
 * every object (archive members, shared libraries too) is decoded
 * instruction by instruction (the architecture's decoder, arch.h) and each instruction is compared
 * with the features' `audit:` patterns, so bytes inside immediates,
 * displacements and data objects never count. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "catalog.h"
#include "cmds.h"
#include "file.h"
#include "gnuprop.h"
#include "obj.h"
#include "opt.h"
#include "out.h"
#include "arch.h"
#include "words.h"
#include "xalloc.h"

/* The catalog of one architecture with its patterns compiled. */
struct arch_cat {
	const struct arch *arch;
	int loaded;               /* 1 loaded, -1 failed (the error was reported) */
	struct catalog cat;
	void **pats;              /* parallel to cat.f: the arch's compiled patterns */
};

/* What one function (or the code no symbol covers) contains. */
struct row {
	const char *name;
	int section;
	uint64_t off, size, undecoded;
	unsigned *hits;           /* per feature */
};

struct audit {
	const char *templates;
	enum out_format format;
	struct opt_list expect_opts;    /* each --expect LIST */
	struct arch_cat cats[ARCH_MAX];  /* parallel to arch_all */
	char **expect;
	size_t nexpect;
	int *found;               /* per expect, for the current FILE */
	struct buf json;
	int nfiles_json;
	const char *baseline;     /* --baseline: an earlier audit's JSON */
	struct caps seen;         /* every extension found in any FILE */
};

static struct arch_cat *get_catalog(struct audit *a, const struct arch *arch, char *err, size_t errlen)
{
	size_t k = 0;
	while (arch_all[k] != arch)
		k++;
	struct arch_cat *c = &a->cats[k];

	if (c->loaded)
		return c->loaded > 0 ? c : NULL;
	c->arch = arch;
	if (a->templates ? catalog_load_dir(&c->cat, a->templates, arch->name, err, errlen)
	                 : catalog_load_builtin(&c->cat, arch->name, err, errlen))
		return NULL;
	c->loaded = -1;   /* until every pattern compiles; freed at the end either way */
	c->pats = xcalloc(c->cat.n, sizeof *c->pats);
	for (size_t i = 0; i < c->cat.n && arch->audit_compile; i++)
		if (arch->audit_compile(&c->cat.f[i], &c->pats[i], err, errlen))
			return NULL;
	c->loaded = 1;
	return c;
}

struct scan { const struct arch_cat *c; const uint8_t *data; struct row *r; };

static void count(void *ctx, uint64_t off, const struct arch_insn *in, unsigned step)
{
	struct scan *sc = ctx;
	if (!in) {
		sc->r->undecoded += step;
		return;
	}
	for (size_t i = 0; i < sc->c->cat.n; i++)
		if (sc->c->arch->audit_match(&sc->c->cat.f[i], sc->c->pats[i], in, sc->data + off))
			sc->r->hits[i]++;
}

/* The code of a section: its bytes and the spans its mapping symbols mark
 * (data skipped, ARM's A32 and Thumb apart). */
struct code { const uint8_t *data; const struct code_span *spans; size_t nspans; };

/* Linear decode of code[from..to), counting pattern hits per feature. */
static void scan(const struct arch_cat *c, const struct code *k, uint64_t from, uint64_t to,
                 struct row *r)
{
	struct scan sc = { c, k->data, r };
	code_walk(c->arch, k->spans, k->nspans, k->data, from, to, count, &sc);
}

/* Symbols by section, then in address order; at equal addresses
 * functions and globals first, so an alias is reported under its best
 * name. */
static const struct obj *sort_obj;
static int by_value(const void *x, const void *y)
{
	const struct obj_symbol *a = &sort_obj->symbols[*(const size_t *)x];
	const struct obj_symbol *b = &sort_obj->symbols[*(const size_t *)y];

	if (a->section != b->section)
		return a->section < b->section ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (a->is_func != b->is_func)
		return b->is_func - a->is_func;
	if (a->is_global != b->is_global)
		return b->is_global - a->is_global;
	return strcmp(a->name, b->name);
}

/* ELF says what every symbol is: only functions are code.  COFF (without
 * the function type) and Mach-O do not: a symbol in code is taken as code
 * unless known to be data. */
static int decodable(const struct obj_symbol *s)
{
	return s->is_func || (!s->typed && !s->is_data);
}

struct rows { struct row *r; size_t n, cap; size_t nfeat; };

static struct row *add_row(struct rows *rs, const char *name, int section, uint64_t off)
{
	struct row *r;

	if (rs->n == rs->cap)
		rs->r = xrealloc(rs->r, (rs->cap = rs->cap ? 2 * rs->cap : 16) * sizeof *rs->r);
	r = &rs->r[rs->n];
	memset(r, 0, sizeof *r);
	r->hits = xcalloc(rs->nfeat, sizeof *r->hits);
	rs->n++;
	r->name = name;
	r->section = section;
	r->off = off;
	return r;
}

/* Code no symbol covers (a stripped library's local functions, padding)
 * is decoded too, into one row per section. */
static void scan_gap(struct rows *rs, size_t *gap, int si, const struct arch_cat *c,
                     const struct code *k, uint64_t from, uint64_t to)
{
	if (*gap == SIZE_MAX) {
		add_row(rs, NULL, si, from);
		*gap = rs->n - 1;
	}
	rs->r[*gap].size += to - from;
	scan(c, k, from, to, &rs->r[*gap]);
}

/* Section si, whose symbols are sym[0..nsym) in by_value order.  Each
 * symbol costs O(1) besides the bytes decoded, and each byte is decoded
 * once: bytes an earlier function already covers count under it alone (a
 * hostile object's thousands of symbols at one address, or over the same
 * bytes, cost no more than their count). */
static void audit_section(const struct obj *o, int si, const size_t *sym, size_t nsym, const struct arch_cat *c,
                          struct rows *rs)
{
	const struct obj_section *sec = &o->sections[si];
	struct code_span *spans;
	size_t nspans = code_spans(o, sym, nsym, si, 0, &spans);
	struct code code = { sec->data, spans, nspans };
	size_t *idx = xcalloc(nsym + 1, sizeof *idx), n = 0, nfunc = 0, next = 0;
	uint64_t covered = 0, decoded = 0, last_start = UINT64_MAX;
	size_t gap = SIZE_MAX;    /* index: add_row may move the rows */

	for (size_t i = 0; i < nsym; i++)
		if (o->symbols[sym[i]].value < sec->size && !o->symbols[sym[i]].mapping)
			idx[n++] = sym[i];
	for (size_t k = 0; k < n; k++)
		nfunc += decodable(&o->symbols[idx[k]]);
	if (!nfunc) {
		struct row *r = add_row(rs, sec->name, si, 0);
		r->size = sec->size;
		scan(c, &code, 0, sec->size, r);
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		const struct obj_symbol *s = &o->symbols[idx[k]];
		uint64_t end = sec->size;
		if (s->size && s->size < sec->size - s->value)
			end = s->value + s->size;
		else if (!s->size) {
			/* the next symbol further on; `next' only moves forward */
			if (next <= k)
				next = k + 1;
			while (next < n && o->symbols[idx[next]].value <= s->value)
				next++;
			if (next < n)
				end = o->symbols[idx[next]].value;
		}
		if (s->value > covered)
			scan_gap(rs, &gap, si, c, &code, covered, s->value);
		if (end > covered)
			covered = end;
		if (!decodable(s) || s->value == last_start)
			continue;
		last_start = s->value;
		struct row *r = add_row(rs, s->name, si, s->value);
		r->size = end - s->value;
		/* Without mapping symbols (a stripped library) the function
		 * symbol says Thumb or A32. */
		if (code.nspans == 1)
			spans[0].mode = s->thumb ? ARCH_MODE_THUMB : 0;
		if (end > decoded) {
			scan(c, &code, s->value > decoded ? s->value : decoded, end, r);
			decoded = end;
		}
	}
	if (covered < sec->size)
		scan_gap(rs, &gap, si, c, &code, covered, sec->size);
out:
	free(spans);
	free(idx);
}

static int any_hit(const struct row *r, size_t nfeat)
{
	for (size_t i = 0; i < nfeat; i++)
		if (r->hits[i])
			return 1;
	return 0;
}

/* Directive features (`section:`) are present when one of their sections is. */
static int has_section(const struct obj *o, const char *names)
{
	const struct obj_section *s = obj_section_listed(o, names);

	return s && s->size;
}

/* Names come from the file: no control bytes or broken UTF-8 reach the
 * terminal or the JSON (non-ASCII becomes '?'). */
static const char *printable(char *dst, size_t n, const char *s)
{
	size_t i = 0;

	if (!s)
		return NULL;
	for (; s[i] && i + 1 < n; i++)
		dst[i] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ? '?' : s[i];
	dst[i] = 0;
	return dst;
}

static void note_found(struct audit *a, const char *feature)
{
	caps_add(&a->seen, feature, "found", NULL, 1);
	for (size_t i = 0; i < a->nexpect; i++)
		if (!strcmp(a->expect[i], feature))
			a->found[i] = 1;
}

/* The protections the object is marked for in its GNU property note
 * (text: a line when there is a note; JSON: "marked", null without). */
static void report_marks(struct audit *a, const struct obj *o, const struct arch *arch)
{
	uint32_t bits;
	int has = arch->gnu_property && gnu_property_word(o, arch->gnu_property, &bits);
	if (a->format == OUT_JSON && !has) {
		buf_puts(&a->json, ", \"marked\": null");
		return;
	}
	if (!has)
		return;
	if (a->format == OUT_TEXT)
		printf("  marked:");
	else
		buf_puts(&a->json, ", \"marked\": [");
	const char *const *names = arch->gnu_property_bits;
	size_t named = 0;
	while (names[named])
		named++;
	const char *sep = "";
	for (unsigned b = 0; b < 32; b++) {
		if (!(bits >> b & 1))
			continue;
		char other[16];
		snprintf(other, sizeof other, "bit%u", b);
		const char *name = b < named ? names[b] : other;
		if (a->format == OUT_TEXT)
			printf(" %s", name);
		else
			buf_puts(&a->json, sep), buf_json_str(&a->json, name);
		sep = ", ";
	}
	if (a->format == OUT_TEXT)
		printf("%s (.note.gnu.property: kept by the link only when every object has it)\n", bits ? "" : " none");
	else
		buf_puts(&a->json, "]");
}

/* The object's heading: its file (and archive member) and format. */
static void report_head(struct audit *a, const char *file, const char *member, const struct obj *o)
{
	char mname[256];
	member = printable(mname, sizeof mname, member);
	if (a->format == OUT_TEXT) {
		printf("%s%s%s%s: %s\n", file, member ? "(" : "", member ? member : "", member ? ")" : "",
		       obj_format_name(o));
		return;
	}
	buf_printf(&a->json, "%s\n  {\"file\": ", a->nfiles_json++ ? "," : "");
	buf_json_str(&a->json, file);
	buf_puts(&a->json, ", \"member\": ");
	buf_json_str(&a->json, member);
	buf_printf(&a->json, ", \"format\": \"%s\", \"functions\": [", obj_format_name(o));
}

/* One function's (or unnamed stretch's) line: where, how big, each
 * feature it uses and how often. */
static void report_row_text(const struct row *r, const char *name, const char *sname,
                            const struct arch_cat *c, size_t nfeat)
{
	printf("  %-32s %-14s %8llu bytes ", name, sname, (unsigned long long)r->size);
	if (!any_hit(r, nfeat))
		printf(" -");
	for (size_t i = 0; i < nfeat; i++)
		if (r->hits[i])
			printf(" %s:%u", c->cat.f[i].name, r->hits[i]);
	if (r->undecoded)
		printf("  (%llu bytes not instructions)", (unsigned long long)r->undecoded);
	printf("\n");
}

static void report_row_json(struct audit *a, const struct row *r, const char *name, const char *sname,
                            const struct arch_cat *c, size_t nfeat, int first)
{
	const char *sep = "";
	buf_printf(&a->json, "%s\n    {\"name\": ", first ? "" : ",");
	buf_json_str(&a->json, r->name ? name : NULL);
	buf_puts(&a->json, ", \"section\": ");
	buf_json_str(&a->json, sname);
	buf_printf(&a->json, ", \"offset\": %llu, \"size\": %llu, \"undecoded\": %llu, \"features\": {",
	           (unsigned long long)r->off, (unsigned long long)r->size, (unsigned long long)r->undecoded);
	for (size_t i = 0; i < nfeat; i++)
		if (r->hits[i]) {
			buf_puts(&a->json, sep);
			buf_json_str(&a->json, c->cat.f[i].name);
			buf_printf(&a->json, ": %u", r->hits[i]);
			sep = ", ";
		}
	buf_puts(&a->json, "}}");
}

static void report_rows(struct audit *a, const struct obj *o, const struct arch_cat *c, const struct rows *rs)
{
	int shown = 0;
	for (size_t k = 0; k < rs->n; k++) {
		const struct row *r = &rs->r[k];
		char sname[64], name[512];
		if (!r->name && !any_hit(r, rs->nfeat))
			continue;   /* uncovered padding with nothing in it */
		printable(sname, sizeof sname, o->sections[r->section].name);
		if (r->name)
			printable(name, sizeof name, r->name);
		else
			snprintf(name, sizeof name, "[%s, no symbol]", sname);
		for (size_t i = 0; i < rs->nfeat; i++)
			if (r->hits[i])
				note_found(a, c->cat.f[i].name);
		if (a->format == OUT_TEXT)
			report_row_text(r, name, sname, c, rs->nfeat);
		else
			report_row_json(a, r, name, sname, c, rs->nfeat, !shown++);
	}
}

/* The directive features whose sections the object has. */
static void report_sections(struct audit *a, const struct obj *o, const struct arch_cat *c)
{
	const char *sep = "";   /* text separates names by a blank, JSON by a comma */
	if (a->format == OUT_JSON)
		buf_puts(&a->json, "], \"sections\": [");
	for (size_t i = 0; i < c->cat.n; i++) {
		const struct feature *f = &c->cat.f[i];
		if (!f->section || !has_section(o, f->section))
			continue;
		note_found(a, f->name);
		if (a->format == OUT_TEXT) {
			printf("%s%s", *sep ? " " : "  sections: ", f->name);
		} else {
			buf_puts(&a->json, sep);
			buf_json_str(&a->json, f->name);
		}
		sep = ", ";
	}
	if (a->format == OUT_TEXT && *sep)
		printf(" (%s)\n", "directive features whose sections are present");
	if (a->format == OUT_JSON)
		buf_puts(&a->json, "]");
}

static void report(struct audit *a, const char *file, const char *member, const struct obj *o,
                   const struct arch_cat *c, const struct rows *rs)
{
	report_head(a, file, member, o);
	report_rows(a, o, c, rs);
	report_sections(a, o, c);
	report_marks(a, o, c->arch);
	if (a->format == OUT_JSON)
		buf_puts(&a->json, "}");
}

static void free_rows(struct rows *rs)
{
	for (size_t k = 0; k < rs->n; k++)
		free(rs->r[k].hits);
	free(rs->r);
}

static int is_audited(const struct obj_section *sec)
{
	return sec->is_code && sec->data;
}

/* Section indices by where their bytes start in the file. */
static const struct obj *data_obj;
static int by_data(const void *p, const void *q)
{
	uintptr_t a = (uintptr_t)data_obj->sections[*(const size_t *)p].data;
	uintptr_t b = (uintptr_t)data_obj->sections[*(const size_t *)q].data;
	return (a > b) - (a < b);
}

/* Audited sections whose bytes overlap in the file (no toolchain writes
 * them; hostile headers could make one stretch be decoded once per
 * section): 1 with two of them in *x < *y, or 0. */
static int overlapping_code(const struct obj *o, size_t *x, size_t *y)
{
	size_t *idx = xcalloc(o->nsections + 1, sizeof *idx), n = 0;
	int found = 0;
	for (size_t i = 0; i < o->nsections; i++)
		if (is_audited(&o->sections[i]) && o->sections[i].size)
			idx[n++] = i;
	data_obj = o;
	qsort(idx, n, sizeof *idx, by_data);
	for (size_t k = 0; k + 1 < n && !found; k++) {
		const struct obj_section *s = &o->sections[idx[k]], *t = &o->sections[idx[k + 1]];
		if ((uintptr_t)t->data - (uintptr_t)s->data < s->size) {
			*x = idx[k] < idx[k + 1] ? idx[k] : idx[k + 1];
			*y = idx[k] < idx[k + 1] ? idx[k + 1] : idx[k];
			found = 1;
		}
	}
	free(idx);
	return found;
}

/* Every code section, its symbols found by one sort of them all. */
static void audit_code(const struct obj *o, const struct arch_cat *c, struct rows *rs)
{
	size_t *sym = xcalloc(o->nsymbols + 1, sizeof *sym), n = 0;
	for (size_t i = 0; i < o->nsymbols; i++)
		if (o->symbols[i].section >= 0 && (size_t)o->symbols[i].section < o->nsections &&
		    is_audited(&o->sections[o->symbols[i].section]))
			sym[n++] = i;
	sort_obj = o;
	qsort(sym, n, sizeof *sym, by_value);
	size_t k = 0;
	/* x32 objects are ELF32 but hold 64-bit code. */
	for (size_t si = 0; si < o->nsections; si++) {
		if (!is_audited(&o->sections[si]))
			continue;
		while (k < n && (size_t)o->symbols[sym[k]].section < si)
			k++;
		size_t e = k;
		while (e < n && (size_t)o->symbols[sym[e]].section == si)
			e++;
		audit_section(o, (int)si, sym + k, e - k, c, rs);
		k = e;
	}
	free(sym);
}

static int audit_object(struct audit *a, const char *file, const char *member,
                        const uint8_t *buf, size_t len)
{
	char err[256];
	struct obj o;
	struct arch_cat *c;
	struct rows rs = { 0 };

	if (obj_parse(&o, buf, len, err, sizeof err)) {
		fprintf(stderr, "asmcap audit: %s%s%s%s: %s\n", file, member ? "(" : "",
		        member ? member : "", member ? ")" : "", err);
		return 2;
	}
	const struct arch *arch = arch_of_obj(&o);
	if (!arch || !arch->decode) {
		char m[32];
		fprintf(stderr, "asmcap audit: %s%s%s%s: %s code (%s): asmcap has no decoder for it\n", file,
		        member ? "(" : "", member ? member : "", member ? ")" : "", arch_machine_name(&o, m, sizeof m),
		        obj_format_name(&o));
		obj_free(&o);
		return 2;
	}
	c = get_catalog(a, arch, err, sizeof err);
	if (!c) {
		fprintf(stderr, "asmcap audit: catalog: %s\n", err);
		obj_free(&o);
		return 2;
	}
	rs.nfeat = c->cat.n;
	size_t x, y;
	if (overlapping_code(&o, &x, &y)) {
		fprintf(stderr, "asmcap audit: %s%s%s%s: code sections %zu (%s) and %zu (%s) overlap in the file: "
		        "not an object a toolchain wrote\n", file, member ? "(" : "", member ? member : "",
		        member ? ")" : "", x, o.sections[x].name, y, o.sections[y].name);
		obj_free(&o);
		return 2;
	}
	audit_code(&o, c, &rs);
	report(a, file, member, &o, c, &rs);
	free_rows(&rs);
	obj_free(&o);
	return 0;
}

static int audit_file(struct audit *a, const char *path)
{
	size_t len, pos = 0, mlen;
	uint8_t *buf = file_read(path, &len);
	const uint8_t *m;
	char name[256], err[256];
	int rc = 0, r, members = 0;

	if (!buf) {
		fprintf(stderr, "asmcap audit: %s: %s\n", path, file_error());
		return 2;
	}
	if (!ar_is_archive(buf, len)) {
		rc = audit_object(a, path, NULL, buf, len);
		free(buf);
		return rc;
	}
	while ((r = ar_next(buf, len, &pos, name, sizeof name, &m, &mlen, err, sizeof err)) == 1) {
		members++;
		if ((r = audit_object(a, path, name, m, mlen)) > rc)
			rc = r;
	}
	if (r < 0) {
		fprintf(stderr, "asmcap audit: %s: %s\n", path, err);
		rc = 2;
	} else if (!members) {
		fprintf(stderr, "asmcap audit: %s: archive has no members\n", path);
		rc = 2;
	}
	free(buf);
	return rc;
}

static const char audit_text[] =
	"exit: 0 audited, 1 an --expect'ed extension is not used, or one OLD.json found is not found now,\n"
	"      2 a file cannot be read or decoded\n";

#define OPT_STRUCT struct audit
static const struct opt audit_options[] = {
	OPT_LIST("--expect", "LIST", expect_opts, "extensions the built code must use (comma-separated)"),
	OPT_TEXT("--baseline", "OLD.json", baseline, "an earlier audit: what it found must still be found"),
	OPT_FORMAT("--format", "text|json", format, OUT_JSON, "the output's form"),
	OPT_TEXT("--templates", "DIR", templates, "the catalog to read instead of the built-in one"),
	OPT_TABLE_END,
};
#undef OPT_STRUCT

/* Every --expect adx,bmi2 (or several --expect): the names in a->expect. */
static void expect_names(struct audit *a)
{
	for (size_t k = 0; k < a->expect_opts.n; k++) {
		char *copy = xstrdup(a->expect_opts.v[k]), *save = NULL;
		for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
			a->expect = xrealloc(a->expect, (a->nexpect + 1) * sizeof *a->expect);
			a->expect[a->nexpect++] = xstrdup(t);
		}
		free(copy);
	}
}

/* Every --expect name must be a feature of a catalog we can load (a
 * --templates tree may hold one architecture only). */
static int check_expect(struct audit *a)
{
	char err[256], first[256] = "";
	struct arch_cat *cats[ARCH_MAX];
	size_t n = 0, nok = 0;

	expect_names(a);
	if (!a->nexpect)
		return 0;
	for (; arch_all[n]; n++) {
		cats[n] = get_catalog(a, arch_all[n], err, sizeof err);
		if (cats[n])
			nok++;
		else if (!*first)
			snprintf(first, sizeof first, "%s", err);
	}
	if (!nok) {
		fprintf(stderr, "asmcap audit: catalog: %s\n", first);
		return -1;
	}
	for (size_t i = 0; i < a->nexpect; i++) {
		size_t k = 0;
		while (k < n && !(cats[k] && catalog_find(&cats[k]->cat, a->expect[i])))
			k++;
		if (k == n) {
			fprintf(stderr, "asmcap audit: --expect: unknown feature \"%s\" (see asmcap list)\n",
			        a->expect[i]);
			return -1;
		}
	}
	return 0;
}

/* Every file audited: 0, 1 (an --expect'ed feature missing) or 2. */
static int audit_files(struct audit *a, const char *const *files, size_t nfiles)
{
	int rc = 0;
	a->found = xcalloc(a->nexpect, sizeof *a->found);
	if (a->format == OUT_JSON)
		buf_puts(&a->json, "{\"schema\": 1, \"objects\": [");
	for (size_t f = 0; f < nfiles; f++) {
		memset(a->found, 0, a->nexpect * sizeof *a->found);
		int r = audit_file(a, files[f]);
		if (r) {
			rc = r;
			continue;
		}
		for (size_t i = 0; i < a->nexpect; i++)
			if (!a->found[i]) {
				fprintf(stderr, "asmcap audit: %s: expected %s, but no function or section in it "
				                "uses it\n", files[f], a->expect[i]);
				if (!rc)
					rc = 1;
			}
	}
	if (a->format == OUT_JSON) {
		buf_puts(&a->json, "\n]}\n");
		int w = file_output("asmcap audit", NULL, &a->json);
		rc = w ? w : rc;
	}
	return rc;
}

static void audit_free(struct audit *a)
{
	for (size_t k = 0; k < ARCH_MAX; k++) {
		struct arch_cat *c = &a->cats[k];
		if (!c->loaded)
			continue;
		for (size_t i = 0; c->pats && c->arch->audit_free && i < c->cat.n; i++)
			c->arch->audit_free(c->pats[i]);
		free(c->pats);
		catalog_free(&c->cat);
	}
	for (size_t i = 0; i < a->nexpect; i++)
		free(a->expect[i]);
	free(a->expect);
	free(a->found);
	buf_free(&a->json);
	caps_free(&a->seen);
}

/* --baseline: the extensions base found that these files do not use (a
 * table on stderr; stdout is the audit's): 0, or 1 when one is lost. */
static int audit_against(struct audit *a, const struct caps *base)
{
	struct buf b = {0};
	char err[512];
	a->seen.kind = CAPS_AUDIT;
	long lost = caps_diff(&b, OUT_TEXT, base, a->baseline, &a->seen, "this audit", 1, err, sizeof err);
	if (lost < 0)
		fprintf(stderr, "asmcap audit: --baseline: %s\n", err);
	else if (b.s)
		fputs(b.s, stderr);
	buf_free(&b);
	return lost < 0 ? 2 : lost > 0;
}

static int audit_main(void *cmd, const struct opts *s)
{
	struct audit *a = cmd;
	struct caps base = {0};
	char err[1024];
	int rc = 2;
	if (a->baseline && caps_load(&base, a->baseline, err, sizeof err))
		fprintf(stderr, "asmcap audit: --baseline: %s\n", err);
	else if (!check_expect(a)) {
		rc = audit_files(a, s->args, s->nargs);
		if (rc < 2 && a->baseline) {
			int rb = audit_against(a, &base);
			rc = rb > rc ? rb : rc;
		}
	}
	caps_free(&base);
	audit_free(a);
	return rc;
}

const struct command cmd_audit = {
	"audit", {"asmcap audit", "asmcap audit FILE...", NULL, audit_text, audit_options, 1, OPT_ANY, "audit needs a FILE", NULL},
	sizeof(struct audit), NULL, audit_main,
};
