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
	free(p->mflags); free(p->path); free(p->body);
	memset(p, 0, sizeof *p);
}

/* `// key: value' header lines, then the body.  name: the file's base
 * name; feats: the arch's catalog (insn: must name one of its features). */
static int parse(struct cprobe *p, const char *path, const char *name, const char *text,
                 const struct catalog *feats, char *err, size_t errlen)
{
	static const char *const keys[] = {"feature", "summary", "since", "insn", "target", "mflags", NULL};
	char **slot[] = {&p->name, &p->summary, &p->since, &p->insn, &p->target, &p->mflags};
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
		if (!colon || !keys[i] || *slot[i] || !*v) {
			snprintf(err, errlen, "%s:%u: %s", path, line, !colon || !keys[i] ? "unknown header line (keys: feature, summary, since, insn, target, mflags)"
			         : *slot[i] ? "key given twice" : "empty value");
			free(h);
			return -1;
		}
		*slot[i] = xstrdup(v);
		free(h);
		l += len + (l[len] == '\n');
	}
	p->body = xstrdup(l);
	p->body_line = line;
	const char *bad = !p->name ? "no `feature:' line" : strcmp(p->name, name) ? "`feature:' does not match the file name"
	                : !p->insn ? "no `insn:' line" : !catalog_find(feats, p->insn) ? "`insn:' names no feature of this architecture's catalog"
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
