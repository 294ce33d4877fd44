/* SPDX-License-Identifier: MIT */
/* Running the C compiler: $CC $CFLAGS on a file, and whether it accepts
 * flags (a warning-free file compiles with them under -Werror and the
 * compiler says nothing it did not already say without them).  Shared by
 * cc-flag, cc-probe, frame and choose. */
#include "cc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "retry.h"
#include "tmpdir.h"
#include "xalloc.h"

static const char probe_src[] = "int asmcap_cc_probe(int x);\nint asmcap_cc_probe(int x) { return x + 1; }\n";

int cc_init(struct cc_ctx *c, const char *cc, const char *cflags, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	if (!cc || !*cc)
		cc = getenv("CC");
	if (!cc || !*cc)
		cc = "cc";
	if (!cflags)
		cflags = getenv("CFLAGS");
	if (argv_split_words(cc, &c->cc, err, errlen) || argv_split_words(cflags ? cflags : "", &c->cflags, err, errlen))
		return -1;
	if (c->cc.n == 0) {
		snprintf(err, errlen, "--cc is empty");
		return -1;
	}
	return 0;
}

void cc_free(struct cc_ctx *c)
{
	strv_free(&c->cc);
	strv_free(&c->cflags);
	free(c->base_err);
}

void cc_argv(const struct cc_ctx *c, const struct strv *extra, const char *src, const char *obj,
             struct strv *argv)
{
	strv_append(argv, &c->cc);
	strv_append(argv, &c->cflags);
	if (extra)
		strv_append(argv, extra);
	strv_push(argv, "-c");
	strv_push(argv, src);
	strv_push(argv, "-o");
	strv_push(argv, obj);
}

int cc_compile(struct cc_ctx *c, const struct strv *extra, const char *also, const char *src, const char *obj,
               struct run_result *r, char *err, size_t errlen)
{
	struct strv argv = { 0 }, flags = { 0 };
	if (extra)
		strv_append(&flags, extra);
	if (also)
		strv_push(&flags, also);
	cc_argv(c, &flags, src, obj, &argv);
	int rc = run_cmd(argv.v, NULL, 0, r, err, errlen);
	strv_free(&flags);
	strv_free(&argv);
	return rc;
}

const char *cc_probe_file(char *err, size_t errlen)
{
	static char path[4096];
	if (path[0])
		return path;
	snprintf(path, sizeof path, "%s/ccflag.c", tmpdir_path());
	if (file_write(path, probe_src)) {
		snprintf(err, errlen, "cannot write %s", path);
		path[0] = 0;
		return NULL;
	}
	return path;
}

/* Does p[0..n) hold w? */
static int line_has(const char *p, size_t n, const char *w)
{
	size_t m = strlen(w);
	for (size_t i = 0; i + m <= n; i++)
		if (!memcmp(p + i, w, m))
			return 1;
	return 0;
}

/* First line of `text` that is not a line of `base` and holds `with`
 * ("" for any), or NULL. */
static const char *new_line(const char *text, const char *base, const char *with, size_t *len)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		int seen = 0;
		for (const char *q = base; q && *q && !seen;) {
			size_t m = strcspn(q, "\n");
			seen = m == n && !memcmp(p, q, n);
			q += m + (q[m] == '\n');
		}
		if (!seen && n && line_has(p, n, with)) {
			*len = n;
			return p;
		}
		p += n + (p[n] == '\n');
	}
	return NULL;
}

const char *cc_error_line(const char *text, size_t *len)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		if (line_has(p, n, "error")) {
			*len = n;
			return p;
		}
		p += n + (p[n] == '\n');
	}
	*len = strcspn(text, "\n");
	return text;
}

/* One flag set under test: retry_kind's ctx, for its control and rounds. */
struct flag_try {
	struct cc_ctx *c;
	const struct strv *flags;
	struct strv tried;      /* the words as compiled: -Wno-X as -WX */
	struct retry_tries tries;
	int ok;
	char *why;
	size_t whylen;
};

/* The control (retry_kind.control_once): the flag-free file under -Werror.
 * The first that passes keeps its messages as the baseline.  0, or 3 with
 * err (*fatal: not found or a hang, another try costs the same). */
static int control_once(void *ctx, int *fatal, char *err, size_t errlen)
{
	struct cc_ctx *c = ((struct flag_try *)ctx)->c;
	const char *src = cc_probe_file(err, errlen);
	*fatal = 1;
	if (!src)
		return 3;
	char obj[4200];
	snprintf(obj, sizeof obj, "%s/ccflag-base.o", tmpdir_path());
	struct run_result r;
	if (cc_compile(c, NULL, "-Werror", src, obj, &r, err, errlen))
		return 3;
	if (!r.exited || r.status) {
		char what[512];
		struct strv argv = { 0 };
		strv_append(&argv, &c->cc);
		strv_append(&argv, &c->cflags);
		strv_push(&argv, "-Werror");
		strv_push(&argv, "-c");
		strv_push(&argv, "FILE.c");
		run_describe(argv.v, &r, what, sizeof what);
		strv_free(&argv);
		size_t n;
		const char *line = cc_error_line(r.err, &n);
		snprintf(err, errlen, "toolchain unusable: %s%s%.*s", what, n ? ": " : "", (int)n, line);
		*fatal = r.not_found || r.timed_out;
		run_result_free(&r);
		return 3;
	}
	if (!c->base_done) {
		c->base_err = r.err;
		r.err = NULL;
		c->base_done = 1;
	}
	run_result_free(&r);
	return 0;
}

/* Does line[0..len) name one of the words compiled?  Only then is a
 * failure the flag's: a launcher's or a wrapper's names none of them. */
static int names_flag(const struct flag_try *t, const char *line, size_t len)
{
	for (size_t i = 0; i < t->tried.n; i++)
		if (line_has(line, len, t->tried.v[i]))
			return 1;
	return 0;
}

/* The flag set compiled once and judged (retry_kind.round, one input): a
 * failure that names nothing is left in todo[0..*left), its verdict `no'
 * if it settles so.  0, or 3 with err (not found, a hang). */
static int flag_round(void *ctx, size_t *todo, size_t n, size_t *left, char *err, size_t errlen)
{
	static unsigned seq;
	struct flag_try *t = ctx;
	struct strv extra = { 0 }, argv = { 0 };
	char obj[4200];
	snprintf(obj, sizeof obj, "%s/ccflag-%u.o", tmpdir_path(), seq++);
	strv_push(&extra, "-Werror");
	strv_append(&extra, &t->tried);
	cc_argv(t->c, &extra, cc_probe_file(err, errlen), obj, &argv);
	strv_free(&extra);
	struct run_result r;
	int rc = run_cmd(argv.v, NULL, 0, &r, err, errlen) ? 3 : 0;
	if (!rc && (r.not_found || r.timed_out)) {
		run_describe(argv.v, &r, err, errlen);
		run_result_free(&r);
		rc = 3;
	}
	strv_free(&argv);
	*left = 0;
	(void)n;        /* always the one input */
	if (rc)
		return rc;
	size_t len = 0;
	/* GNU as's "Assembler messages:" says less than the error under it */
	const char *line = new_line(r.err, t->c->base_err, "rror", &len);
	if (!line)
		line = new_line(r.err, t->c->base_err, "", &len);
	t->ok = r.exited && r.status == 0 && !line;
	if (!line)
		line = t->ok ? "" : "rejected without a message", len = strlen(line);
	snprintf(t->why, t->whylen, "%.*s", (int)len, line);
	if (t->ok || (r.exited && names_flag(t, line, len))) {
		retry_decided(&t->c->trust, &t->tries);
	} else {
		char *what = r.exited ? xstrdup(t->why) : xprintf("the compiler was killed by %s", run_signal_name(r.signal));
		char *name = argv_join(t->flags->v), *why = xprintf("%s: %s", name, what);
		retry_failed(&t->c->trust, &t->tries, what, !r.exited, why);
		free(what);
		free(name);
		free(why);
		todo[(*left)++] = todo[0];
	}
	run_result_free(&r);
	return 0;
}

static struct retry_tries *flag_tries(void *ctx, size_t i)
{
	(void)i;
	return &((struct flag_try *)ctx)->tries;
}

int cc_flags_accepted(struct cc_ctx *c, const struct strv *flags, char *why, size_t whylen,
                      char *err, size_t errlen)
{
	struct flag_try t = {.c = c, .flags = flags, .why = why, .whylen = whylen};
	struct retry_kind k = {&t, control_once, flag_round, flag_tries, NULL, NULL};
	for (size_t i = 0; i < flags->n; i++) {
		const char *f = flags->v[i];
		if (!strncmp(f, "-Wno-", 5) && f[5]) {
			char pos[512];
			snprintf(pos, sizeof pos, "-W%s", f + 5);
			strv_push(&t.tried, pos);
		} else {
			strv_push(&t.tried, f);
		}
	}
	size_t todo = 0;
	int r = c->base_done ? 0 : retry_control(&c->trust, &k, err, errlen);
	if (!r)
		r = retry_rounds(&c->trust, &k, &todo, 1, err, errlen);
	strv_free(&t.tried);
	retry_tries_free(&t.tries);
	return r ? -1 : t.ok;
}
