/* SPDX-License-Identifier: MIT */
/* The C-level probe catalog (ccat.h): parse the built-in c/ files. */
#include "ccat.h"
#include "catalog.h"
#include "asmrun.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cprobe_free(struct cprobe *p)
{
	free(p->name); free(p->summary); free(p->since); free(p->insn); free(p->target);
	free(p->mflags); free(p->path); free(p->body); free(p->reloc);
	for (size_t i = 0; i < p->nholds; i++)
		free(p->holds[i].text);
	free(p->holds);
	memset(p, 0, sizeof *p);
}

/* One alternative of a `holds:' line: bytes `HH', or `HH/MM' (the bits
 * of mask MM are HH: a register field left open).  NULL, or what is wrong. */
static const char *parse_seq(struct ccat_seq *q, char *text)
{
	char *save = NULL;
	memset(q, 0, sizeof *q);
	for (char *t = strtok_r(text, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		static const char hex[] = "0123456789abcdefABCDEF";
		if (strspn(t, hex) != 2 || (t[2] && (t[2] != '/' || strspn(t + 3, hex) != 2 || t[5])))
			return "a byte is HH or HH/MM (two hex digits each)";
		int masked = t[2] == '/';
		unsigned v = (unsigned)strtoul(t, NULL, 16), m = masked ? (unsigned)strtoul(t + 3, NULL, 16) : 0xff;
		if ((v & ~m) || !m)
			return "HH/MM: MM is not 00 and HH has no bit outside it";
		if (q->n == sizeof q->v)
			return "more than 32 bytes in one alternative";
		q->v[q->n] = (uint8_t)v;
		q->m[q->n++] = (uint8_t)m;
	}
	return q->n ? NULL : "an empty alternative";
}

/* A `holds:' line added to p: alternatives separated by `|'.  NULL, or
 * what is wrong. */
static const char *add_holds(struct cprobe *p, const char *value)
{
	struct ccat_hold *h = xrealloc(p->holds, (p->nholds + 1) * sizeof *h);
	char *copy = xstrdup(value), *save = NULL;
	const char *bad = NULL;
	size_t bars = 0;
	for (const char *c = value; *c; c++)
		bars += *c == '|';
	p->holds = h;
	h = &p->holds[p->nholds++];
	memset(h, 0, sizeof *h);
	h->text = xstrdup(value);
	for (char *a = strtok_r(copy, "|", &save); a && !bad; a = strtok_r(NULL, "|", &save))
		bad = h->nalt == sizeof h->alt / sizeof *h->alt ? "more than 4 alternatives" : parse_seq(&h->alt[h->nalt++], a);
	free(copy);
	return bad ? bad : h->nalt != bars + 1 ? "an empty alternative" : NULL;
}

/* `// key: value' header lines, then the body.  name: the file's base
 * name; feats: the arch's catalog (insn: must name one of its features). */
static int parse(struct cprobe *p, const char *path, const char *name, const char *text,
                 const struct catalog *feats, char *err, size_t errlen)
{
	static const char *const keys[] = {"feature", "summary", "since", "insn", "target", "mflags", "reloc", "holds", NULL};
	char **slot[] = {&p->name, &p->summary, &p->since, &p->insn, &p->target, &p->mflags, &p->reloc, NULL};
	const char *l = text;
	unsigned line = 1;
	memset(p, 0, sizeof *p);
	p->path = xstrdup(path);
	for (; !strncmp(l, "//", 2); line++) {
		size_t len = strcspn(l, "\n");
		char *h = xprintf("%.*s", (int)(len - 2), l + 2), *k = h + strspn(h, " \t"), *colon = strchr(k, ':');
		size_t i = 0;
		if (colon) {
			*colon = 0;
			for (; keys[i] && strcmp(keys[i], k); i++)
				;
		}
		char *v = colon ? colon + 1 + strspn(colon + 1, " \t") : NULL;
		const char *bad = !colon || !keys[i] ? "unknown header line (keys: feature, summary, since, insn, target, mflags, reloc, holds)"
		                  : !*v ? "empty value" : !slot[i] ? add_holds(p, v) : *slot[i] ? "key given twice" : NULL;
		if (bad) {
			snprintf(err, errlen, "%s:%u: %s", path, line, bad);
			free(h);
			return -1;
		}
		if (slot[i])
			*slot[i] = xstrdup(v);
		free(h);
		l += len + (l[len] == '\n');
	}
	p->body = xstrdup(l);
	p->body_line = line;
	const char *bad = !p->name ? "no `feature:' line" : strcmp(p->name, name) ? "`feature:' does not match the file name"
	                : !p->insn && !p->nholds ? "neither `insn:' nor `holds:' lines"
	                : p->reloc && !strstr(p->body, p->reloc) ? "`reloc:' names a symbol the body never says"
	                : p->insn && !catalog_find(feats, p->insn) ? "`insn:' names no feature of this architecture's catalog"
	                : !strstr(p->body, CCAT_FUNCTION) ? "the body defines no " CCAT_FUNCTION
	                : p->target && !strstr(p->body, "ASMCAP_TARGET") ? "`target:' given, but the body never says ASMCAP_TARGET" : NULL;
	if (bad) {
		snprintf(err, errlen, "%s:1: %s", path, bad);
		return -1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct cprobe *)a)->name, ((const struct cprobe *)b)->name);
}

int ccat_load(struct ccat *c, const char *arch, char *err, size_t errlen)
{
	struct catalog feats;
	uint64_t h = CATALOG_FNV_INIT;
	char prefix[64];
	memset(c, 0, sizeof *c);
	if (catalog_load_builtin(&feats, arch, err, errlen))
		return -1;
	int n = snprintf(prefix, sizeof prefix, "%s/c/", arch), r = 0;
	for (size_t i = 0; i < catalog_nfiles && !r; i++) {
		const char *path = catalog_files[i].path;
		size_t len = strlen(path);
		if (strncmp(path, prefix, n) || strchr(path + n, '/') || len < (size_t)n + 3 || strcmp(path + len - 2, ".c"))
			continue;
		h = catalog_fnv(catalog_fnv(h, path), catalog_files[i].text);
		char *name = xprintf("%.*s", (int)(len - n - 2), path + n), *full = xprintf("templates/%s", path);
		struct cprobe *g = xrealloc(c->p, (c->n + 1) * sizeof *g);
		c->p = g;
		r = parse(&c->p[c->n], full, name, catalog_files[i].text, &feats, err, errlen);
		if (r)
			cprobe_free(&c->p[c->n]);
		else
			c->n++;
		free(name);
		free(full);
	}
	catalog_free(&feats);
	if (r) {
		ccat_free(c);
		return -1;
	}
	if (c->n)
		qsort(c->p, c->n, sizeof *c->p, by_name);
	snprintf(c->hash, sizeof c->hash, "%016llx", (unsigned long long)h);
	return 0;
}

void ccat_free(struct ccat *c)
{
	for (size_t i = 0; i < c->n; i++)
		cprobe_free(&c->p[i]);
	free(c->p);
	memset(c, 0, sizeof *c);
}
