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
#include "audit-walk.h"
#include "xalloc.h"

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
	int has = arch->gnu_property && obj_gnu_property_word(o, arch->gnu_property, &bits);
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
	if (audit_overlapping_code(&o, &x, &y)) {
		fprintf(stderr, "asmcap audit: %s%s%s%s: code sections %zu (%s) and %zu (%s) overlap in the file: "
		        "not an object a toolchain wrote\n", file, member ? "(" : "", member ? member : "",
		        member ? ")" : "", x, o.sections[x].name, y, o.sections[y].name);
		obj_free(&o);
		return 2;
	}
	audit_code(&o, c, &rs);
	report(a, file, member, &o, c, &rs);
	audit_rows_free(&rs);
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
