/* SPDX-License-Identifier: MIT */
/* The baseline guard (baseline.h): documents read into rows, rows compared. */
#include "baseline.h"
#include "file.h"
#include "json.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cap *find(const struct caps *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->c[i].name, name))
			return &c->c[i];
	return NULL;
}

void caps_add(struct caps *c, const char *name, const char *state, const char *reason, int good)
{
	if (find(c, name))
		return;
	c->c = xrealloc(c->c, (c->n + 1) * sizeof *c->c);
	c->c[c->n++] = (struct cap){xstrdup(name), xstrdup(state), reason ? xstrdup(reason) : NULL, good};
}

void caps_free(struct caps *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->c[i].name);
		free(c->c[i].state);
		free(c->c[i].reason);
	}
	free(c->c);
	free(c->arch);
	memset(c, 0, sizeof *c);
}

/* A feature's second answer, where it has one (the build's flags enable
 * it, without the `enable:' directive), is a row of its own: NAME/flags. */
static void add_flags(struct caps *c, const char *name, const char *st, const char *reason)
{
	char *row = xprintf("%s/flags", name);
	caps_add(c, row, st, reason, !strcmp(st, "yes"));
	free(row);
}

void caps_from_probe(struct caps *c, const struct probe *p)
{
	*c = (struct caps){CAPS_PROBE, xstrdup(p->arch), NULL, 0};
	for (size_t i = 0; i < p->cat.n; i++) {
		caps_add(c, p->cat.f[i].name, engine_status_name(p->v[i].st), p->v[i].reason, p->v[i].st == ST_YES);
		if (p->cat.f[i].nenable)
			add_flags(c, p->cat.f[i].name, engine_status_name(p->vf[i].st), p->vf[i].reason);
	}
}

/* caps.json's features: each one's status and reason, and the flags answer's. */
static int from_features(struct caps *c, const struct json *feats, char *err, size_t errlen)
{
	for (size_t i = 0; i < feats->n; i++) {
		const struct json *flags = json_get(&feats->item[i], "flags");
		const char *st = json_get_str(&feats->item[i], "status"), *fst = json_get_str(flags, "status");
		if (!st || (flags && !fst)) {
			snprintf(err, errlen, "feature `%s' has no \"status\"%s", feats->key[i], st ? " in \"flags\"" : "");
			return -1;
		}
		caps_add(c, feats->key[i], st, json_get_str(&feats->item[i], "reason"), !strcmp(st, "yes"));
		if (flags)
			add_flags(c, feats->key[i], fst, json_get_str(flags, "reason"));
	}
	return 0;
}

/* audit's objects: every extension a function counts, every section seen. */
static void from_objects(struct caps *c, const struct json *objs)
{
	for (size_t k = 0; k < objs->n; k++) {
		const struct json *fns = json_get(&objs->item[k], "functions");
		const struct json *secs = json_get(&objs->item[k], "sections");
		for (size_t i = 0; fns && fns->type == JSON_ARRAY && i < fns->n; i++) {
			const struct json *f = json_get(&fns->item[i], "features");
			for (size_t e = 0; f && f->type == JSON_OBJECT && e < f->n; e++)
				if (f->item[e].type == JSON_NUMBER && f->item[e].num > 0)
					caps_add(c, f->key[e], "found", NULL, 1);
		}
		for (size_t i = 0; secs && secs->type == JSON_ARRAY && i < secs->n; i++)
			if (secs->item[i].type == JSON_STRING)
				caps_add(c, secs->item[i].str, "found", NULL, 1);
	}
}

/* A parsed document as rows: 0, or -1 with err. */
static int from_json(struct caps *c, const struct json *j, char *err, size_t errlen)
{
	const struct json *schema = json_get(j, "schema"), *feats = json_get(j, "features");
	const struct json *objs = json_get(j, "objects");
	memset(c, 0, sizeof *c);
	if (!schema || schema->type != JSON_NUMBER || schema->num != 1) {
		snprintf(err, errlen, "not an asmcap document of schema 1 (no \"schema\": 1)");
		return -1;
	}
	if (feats && feats->type == JSON_OBJECT) {
		c->kind = CAPS_PROBE;
		c->arch = xstrdup(json_get_str(json_get(j, "toolchain"), "arch"));
		return from_features(c, feats, err, errlen);
	}
	if (objs && objs->type == JSON_ARRAY) {
		c->kind = CAPS_AUDIT;
		from_objects(c, objs);
		return 0;
	}
	snprintf(err, errlen, "neither a probe's caps.json (asmcap --format json) nor an audit's "
	         "(asmcap audit --format json)");
	return -1;
}

int caps_load(struct caps *c, const char *path, char *err, size_t errlen)
{
	size_t len;
	char why[512] = "";
	struct json j;
	memset(c, 0, sizeof *c);
	char *text = (char *)file_read(path, &len);
	if (!text) {
		snprintf(err, errlen, "cannot read the baseline %s: %s", path, file_error());
		return -1;
	}
	int bad = json_parse(&j, text, len, why, sizeof why);
	free(text);
	if (!bad) {
		bad = from_json(c, &j, why, sizeof why);
		json_free(&j);
	}
	if (bad) {
		caps_free(c);
		snprintf(err, errlen, "%s: %s", path, why);
	}
	return bad;
}

enum change { CHANGE_SAME, CHANGE_LOST, CHANGE_GAINED, CHANGE_NOT_COMPARED };

struct row {
	const char *name, *before, *now, *reason;
	enum change change;
};

/* One name's states before and now, and what changed. */
static struct row compare(const struct caps *old, const struct caps *now, const char *name)
{
	const char *none = old->kind == CAPS_AUDIT ? "not found" : "absent";
	const struct cap *o = find(old, name), *w = find(now, name);
	struct row r = {name, o ? o->state : none, w ? w->state : none, w ? w->reason : NULL, CHANGE_SAME};
	int was = o && o->good, is = w && w->good;
	if (was && !is)
		/* a feature nobody asked to probe this time was not lost: it was not looked at */
		r.change = w && !strcmp(w->state, "unprobed") ? CHANGE_NOT_COMPARED : CHANGE_LOST;
	else if (!was && is)
		r.change = CHANGE_GAINED;
	return r;
}

/* Every name of old then of now, each once, compared. */
static struct row *rows(const struct caps *old, const struct caps *now, size_t *n)
{
	struct row *r = xcalloc(old->n + now->n + 1, sizeof *r);
	*n = 0;
	for (size_t i = 0; i < old->n; i++)
		r[(*n)++] = compare(old, now, old->c[i].name);
	for (size_t i = 0; i < now->n; i++)
		if (!find(old, now->c[i].name))
			r[(*n)++] = compare(old, now, now->c[i].name);
	return r;
}

static size_t count(const struct row *r, size_t n, enum change c)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += r[i].change == c;
	return k;
}

static void diff_text(struct buf *b, const struct row *r, size_t n, const char *heading)
{
	static const char *const word[] = {"", "LOST", "gained", ""};
	size_t w = strlen("feature"), changed = n - count(r, n, CHANGE_SAME) - count(r, n, CHANGE_NOT_COMPARED);
	for (size_t i = 0; i < n; i++)
		if (r[i].change != CHANGE_SAME && strlen(r[i].name) > w)
			w = strlen(r[i].name);
	buf_printf(b, "%s\n", heading);
	if (changed)
		buf_printf(b, "  %-6s  %-*s  %-9s  %-9s  %s\n", "change", (int)w, "feature", "before", "now", "reason");
	for (size_t i = 0; i < n; i++) {
		if (r[i].change != CHANGE_LOST && r[i].change != CHANGE_GAINED)
			continue;
		buf_printf(b, "  %-6s  %-*s  %-9s  %s", word[r[i].change], (int)w, r[i].name, r[i].before, r[i].now);
		if (r[i].change == CHANGE_LOST && r[i].reason && *r[i].reason) {
			buf_printf(b, "%*s", (int)(11 - strlen(r[i].now)), "");
			buf_text(b, r[i].reason);
		}
		buf_puts(b, "\n");
	}
	buf_printf(b, "%zu lost, %zu gained, %zu unchanged", count(r, n, CHANGE_LOST), count(r, n, CHANGE_GAINED),
	           count(r, n, CHANGE_SAME));
	const char *sep = ", not compared (unprobed now): ";
	for (size_t i = 0; i < n; i++)
		if (r[i].change == CHANGE_NOT_COMPARED) {
			buf_printf(b, "%s%s", sep, r[i].name);
			sep = " ";
		}
	buf_puts(b, "\n");
}

/* One JSON array of the rows whose change is c. */
static void diff_json_rows(struct buf *b, const char *key, const struct row *r, size_t n, enum change c)
{
	const char *sep = "";
	buf_printf(b, ",\n \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		if (r[i].change != c)
			continue;
		buf_printf(b, "%s\n  {\"feature\": ", sep);
		buf_json_str(b, r[i].name);
		buf_puts(b, ", \"before\": ");
		buf_json_str(b, r[i].before);
		buf_puts(b, ", \"now\": ");
		buf_json_str(b, r[i].now);
		buf_puts(b, ", \"reason\": ");
		buf_json_str(b, c == CHANGE_LOST ? r[i].reason : NULL);
		buf_puts(b, "}");
		sep = ",";
	}
	buf_puts(b, *sep ? "\n ]" : "]");
}

static void diff_json(struct buf *b, const struct caps *now, const struct row *r, size_t n,
                      const char *old_name, const char *now_name)
{
	buf_printf(b, "{\"schema\": 1, \"kind\": \"%s\", \"arch\": ", now->kind == CAPS_AUDIT ? "audit" : "probe");
	buf_json_str(b, now->arch);
	buf_puts(b, ", \"old\": ");
	buf_json_str(b, old_name);
	buf_puts(b, ", \"new\": ");
	buf_json_str(b, now_name);
	diff_json_rows(b, "lost", r, n, CHANGE_LOST);
	diff_json_rows(b, "gained", r, n, CHANGE_GAINED);
	diff_json_rows(b, "not_compared", r, n, CHANGE_NOT_COMPARED);
	buf_printf(b, ",\n \"unchanged\": %zu}\n", count(r, n, CHANGE_SAME));
}

long caps_diff(struct buf *b, enum out_format f, const struct caps *old, const char *old_name,
               const struct caps *now, const char *now_name, int quiet, char *err, size_t errlen)
{
	static const char *const kind[] = {"a probe's caps.json", "an audit's JSON"};
	if (old->kind != now->kind) {
		snprintf(err, errlen, "%s is %s, %s %s: compare like with like", old_name, kind[old->kind],
		         now_name, kind[now->kind]);
		return -1;
	}
	if (old->arch && now->arch && strcmp(old->arch, now->arch)) {
		snprintf(err, errlen, "%s is for %s, %s for %s: compare the same target", old_name, old->arch,
		         now_name, now->arch);
		return -1;
	}
	size_t n;
	struct row *r = rows(old, now, &n);
	long lost = (long)count(r, n, CHANGE_LOST);
	if (f == OUT_JSON)
		diff_json(b, now, r, n, old_name, now_name);
	else if (!quiet || lost || count(r, n, CHANGE_GAINED)) {
		char *heading = xprintf("asmcap: %s (before) against %s (now)%s%s:", old_name, now_name,
		                        now->arch ? ", " : "", now->arch ? now->arch : "");
		diff_text(b, r, n, heading);
		free(heading);
	}
	free(r);
	return lost;
}
