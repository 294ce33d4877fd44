/* SPDX-License-Identifier: MIT */
/* asmcap cc-flag: which flags does $CC $CFLAGS accept.
 *
 * A flag is accepted when a tiny, warning-free file compiles with it under
 * -Werror and the compiler says nothing it did not already say without it.
 * Exit status alone is not enough: clang only warns about unknown or unused
 * optimisation flags, and CFLAGS may carry -Wno-error.
 *
 * A flag for the assembler (`-Wa,...', or one a catalog feature's
 * `as-flag:' names) must also be accepted and effective there: compiling C
 * proves nothing about it (clang takes `-Wa,-march=armv9.9-a' silently when
 * it compiles C), so the probe's engine assembles with it, and each feature
 * whose `as-flag:' it is must give its bytes.  The evidence is catalog
 * data (templates/aarch64/march-armv8.2-a.s), not a table here. */
#include "cc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "cache.h"
#include "catalog.h"
#include "cmds.h"
#include "engine.h"
#include "file.h"
#include "opt.h"
#include "out.h"
#include "xalloc.h"

/* The catalog features, of every architecture, whose `as-flag:' is flag
 * (NULL: none), as a --features list ("" for none), with each catalog's
 * hash after `hash' when it is not NULL (the cache key: a changed catalog
 * is other evidence). */
static char *as_flag_features(const char *flag, struct buf *hash)
{
	struct buf names = {0};
	buf_puts(&names, "");
	for (const struct arch *const *a = arch_all; *a; a++) {
		struct catalog cat;
		char e[256];
		if (catalog_load(&cat, NULL, (*a)->name, e, sizeof e))
			continue;       /* a broken added template: the probe names it */
		for (size_t i = 0; i < cat.n; i++)
			if (flag && cat.f[i].as_flag && !strcmp(cat.f[i].as_flag, flag))
				buf_printf(&names, "%s%s", names.s[0] ? "," : "", cat.f[i].name);
		if (hash)
			buf_printf(hash, "|%s", cat.hash);
		catalog_free(&cat);
	}
	return names.s;
}

/* The probe's run with flag added to --asflags (CC and CFLAGS as cc-flag
 * has them), answering `features'.  probe_run's value. */
static int probe_with(const struct cc_ctx *c, const char *flag, const char *features, struct probe *p,
                      char *err, size_t errlen)
{
	char *one[] = {(char *)flag, NULL}, *none[] = {NULL};
	char *cmd = argv_join(c->cc.v), *cflags = argv_join(c->cflags.n ? c->cflags.v : none);
	char *asflags = flag ? argv_join(one) : NULL;
	struct probe_opts o = {.way = "cc", .cmd = cmd, .cflags = cflags, .asflags = asflags, .mode = 'S',
	                       .features = features};
	int r = probe_run(p, &o, err, errlen);
	free(cmd);
	free(cflags);
	free(asflags);
	return r;
}

/* Why a feature flag's evidence fails, or NULL when every feature of
 * this target that names it gave its bytes (another target's: skipped). */
static char *not_effective(const struct probe *p, const char *flag)
{
	for (size_t i = 0; i < p->cat.n; i++) {
		const struct feature *f = &p->cat.f[i];
		const struct verdict *v = &p->v[i];
		if (f->as_flag && !strcmp(f->as_flag, flag) && v->st != ST_SKIPPED && v->st != ST_YES)
			return xprintf("accepted, but not effective: %s is %s with it%s%s", f->name,
			               engine_status_name(v->st), v->reason && *v->reason ? ": " : "",
			               v->reason ? v->reason : "");
	}
	return NULL;
}

/* The assembler's side of a flag: 1 accepted and effective, 0 not (why
 * says what failed), -1 the toolchain cannot assemble even without it
 * (err, exit 3).  The files the answer rests on join deps. */
static int as_side(struct cc_ctx *c, const char *flag, struct strv *deps, char *why, size_t whylen,
                   char *err, size_t errlen)
{
	char *features = as_flag_features(flag, NULL), *bad = NULL;
	struct probe p;
	int r = probe_with(c, flag, features, &p, err, errlen), ok = r == 0;
	if (ok)
		bad = not_effective(&p, flag);
	else {
		/* the flag's fault only when the toolchain assembles without it */
		snprintf(why, whylen, "the assembler fails with it: %.400s", err);
		probe_free(&p);
		r = probe_with(c, NULL, "", &p, err, errlen);
	}
	strv_append(deps, &p.deps);
	probe_free(&p);
	free(features);
	if (bad)
		snprintf(why, whylen, "%s", bad);
	free(bad);
	return r ? -1 : ok && !bad;
}

/* Does flag go to the assembler: `-Wa,...', or a catalog `as-flag:'. */
static int for_assembler(const char *flag)
{
	char *features = as_flag_features(flag, NULL);
	int r = !strncmp(flag, "-Wa,", 4) || features[0];
	free(features);
	return r;
}

/* The variable for a flag: "-fno-tree-pre" -> ASMCAP_CFLAG_FNO_TREE_PRE
 * (leading dashes dropped, the rest upper case, non-alphanumerics '_'). */
static char *flag_var(const char *flag)
{
	while (*flag == '-')
		flag++;
	return out_var_name("ASMCAP_CFLAG_", flag);
}

/* The cache key: everything the answers depend on besides the files. */
static char *flags_key(const struct cc_ctx *c, const char *const *flags, size_t n)
{
	struct buf b = { 0 };
		const struct strv *parts[] = { &c->cc, &c->cflags };
	for (size_t p = 0; p < 2; p++) {
		buf_puts(&b, p ? "|" : "");
		for (size_t k = 0; k < parts[p]->n; k++)
			buf_printf(&b, "%s%s", k ? " " : "", parts[p]->v[k]);
	}
	for (size_t k = 0; k < n; k++)
		buf_printf(&b, "|%s", flags[k]);
	free(as_flag_features(NULL, &b));         /* the catalogs' hashes */
	buf_printf(&b, "|%s", getenv("PATH") ? getenv("PATH") : "");
	return b.s;
}

/* Fill ok[]/why[] from a cached entry; 1 when every flag was there and
 * nothing in it was unknown (else a miss: the flags are probed again). */
static int from_cache(char *payload, const char *const *flags, size_t n, int *ok, char (*why)[512])
{
	size_t found = 0;
	int sound = 1;
	for (char *l = payload; *l && sound;) {
		char *nl = strchr(l, '\n'), *f[5];
		*nl = 0;
		sound = cache_fields(l, f, 5) == 4 && !strcmp(f[0], "flag") &&
		        (!strcmp(f[2], "yes") || !strcmp(f[2], "no"));
		for (size_t k = 0; k < n && sound; k++)
			if (!strcmp(flags[k], f[1])) {
				sound = ok[k] < 0;      /* a flag twice: not an entry we wrote */
				ok[k] = !strcmp(f[2], "yes");
				snprintf(why[k], sizeof why[k], "%s", f[3]);
				found++;
			}
		l = nl + 1;
	}
	return sound && found == n;
}

static void to_cache(const char *file, const char *key, const struct cc_ctx *c, const char *const *flags, size_t n,
                     const int *ok, char (*why)[512], const struct strv *as_deps)
{
	struct strv deps = { 0 };
	strv_append(&deps, as_deps);
	deps_add_words(&deps, &c->cc, 1);
	deps_add_words(&deps, &c->cflags, 0);
	struct buf b = { 0 };
	for (size_t k = 0; k < n; k++) {
		buf_puts(&b, "flag");
		cache_field(&b, flags[k]);
		cache_field(&b, ok[k] ? "yes" : "no");
		cache_field(&b, why[k]);
		buf_puts(&b, "\n");
	}
	cache_store(file, "cc-flag", key, &c->cc, &deps, b.s);
	buf_free(&b);
	strv_free(&deps);
}

struct cc_flag_cmd {
	const char *cc, *cflags, *output, *cache;
	enum out_format fmt;
	int require;
	const char *const *flags;       /* the flags under test: what follows -- */
	size_t nflags;
	struct out_var *vars;   /* one per flag: ASMCAP_CFLAG_... */
	int *ok;                /* 1 accepted, 0 rejected, -1 not known yet */
	char (*why)[512];       /* the compiler's line for a rejected flag */
};

#define OPT_STRUCT struct cc_flag_cmd
static const struct opt cc_flag_options[] = {
	CC_OPTIONS,
	OPT_OUTPUT,
	OPT_CACHE,
	OPT_TIMEOUT("--timeout", "give up on a compiler run after SEC seconds"),
	OPT_SWITCH("--require", require, "exit 1 when a flag is rejected"),
	OPT_TABLE_END,
};
#undef OPT_STRUCT

/* Each flag's variable; two flags with one name are a usage error (2). */
static int cc_flag_names(struct cc_flag_cmd *c)
{
	c->vars = xcalloc(c->nflags, sizeof *c->vars);
	c->why = xcalloc(c->nflags, sizeof *c->why);
	c->ok = xcalloc(c->nflags, sizeof *c->ok);
	for (size_t k = 0; k < c->nflags; k++) {
		c->ok[k] = -1;
		c->vars[k].name = flag_var(c->flags[k]);
		for (size_t j = 0; j < k; j++)
			if (!strcmp(c->vars[j].name, c->vars[k].name)) {
				fprintf(stderr, "asmcap cc-flag: %s and %s would both be %s: probe them in separate runs\n",
				        c->flags[j], c->flags[k], c->vars[k].name);
				return 2;
			}
	}
	return 0;
}

/* Every flag's answer, from --cache or from the compiler: 0, or 3 (the
 * compiler does not work; the reason on stderr). */
static int cc_flag_run(struct cc_flag_cmd *c, struct cc_ctx *cc)
{
	char err[1024];
	char *key = c->cache ? flags_key(cc, c->flags, c->nflags) : NULL, *payload = NULL;
	int rc = 0, hit = key && (payload = cache_lookup(c->cache, "cc-flag", key, &cc->cc)) &&
	                  from_cache(payload, c->flags, c->nflags, c->ok, c->why);
	struct strv deps = { 0 };
	for (size_t k = 0; k < c->nflags && !rc && !hit; k++) {
		struct strv one = { 0 };
		strv_push(&one, c->flags[k]);
		c->ok[k] = cc_flags_accepted(cc, &one, c->why[k], sizeof c->why[k], err, sizeof err);
		strv_free(&one);
		if (c->ok[k] > 0 && for_assembler(c->flags[k]))
			c->ok[k] = as_side(cc, c->flags[k], &deps, c->why[k], sizeof c->why[k], err, sizeof err);
		if (c->ok[k] < 0) {
			fprintf(stderr, "asmcap cc-flag: %s\n", err);
			rc = 3;
		}
	}
	if (key && !hit && !rc)
		to_cache(c->cache, key, cc, c->flags, c->nflags, c->ok, c->why, &deps);
	strv_free(&deps);
	free(key);
	free(payload);
	return rc;
}

/* The variables written out, then --require: 0, 1 (a flag rejected) or 2. */
static int cc_flag_report(struct cc_flag_cmd *c, const struct cc_ctx *cc)
{
	int missing = 0;
	for (size_t k = 0; k < c->nflags; k++) {
		missing += !c->ok[k];
		c->vars[k].value = c->ok[k] ? "yes" : "no";
		c->vars[k].comment = c->ok[k] ? c->flags[k] : c->why[k];
	}
	struct buf b = { 0 };
	char *who = xprintf("asmcap cc-flag --cc %s", c->cc ? c->cc : cc->cc.v[0]);
	out_vars(&b, c->fmt, who, c->vars, c->nflags);
	int rc = file_output("asmcap cc-flag", c->output, &b);
	buf_free(&b);
	free(who);
	if (rc || !c->require || !missing)
		return rc;
	for (size_t k = 0; k < c->nflags; k++)
		if (!c->ok[k])
			fprintf(stderr, "asmcap cc-flag: required flag %s rejected: %s\n", c->flags[k], c->why[k]);
	return 1;
}

static int cc_flag_main(void *cmd, const struct opts *s)
{
	struct cc_flag_cmd *c = cmd;
	char err[1024];
	struct cc_ctx cc;
	c->flags = s->args;
	c->nflags = s->nargs;
	if (cc_init(&cc, c->cc, c->cflags, err, sizeof err)) {
		fprintf(stderr, "asmcap cc-flag: %s\n", err);
		return 2;
	}
	int rc = cc_flag_names(c);
	if (!rc)
		rc = cc_flag_run(c, &cc);
	if (!rc)
		rc = cc_flag_report(c, &cc);
	for (size_t k = 0; c->vars && k < c->nflags; k++)
		free((char *)c->vars[k].name);
	free(c->vars);
	free(c->why);
	free(c->ok);
	cc_free(&cc);
	return rc;
}

const struct command cmd_cc_flag = {
	"cc-flag", {"asmcap cc-flag", "asmcap cc-flag", "-- FLAG...",
	            "A -Wa,... flag must also work in the assembler: each catalog feature whose\n"
	            "as-flag: it is (march-armv8.2-a for -Wa,-march=armv8.2-a) must give its bytes.\n",
	            cc_flag_options, 1, OPT_ANY,
	            "no flags to test: put them after --", "flags under test go after --; got"},
	sizeof(struct cc_flag_cmd), NULL, cc_flag_main,
};
