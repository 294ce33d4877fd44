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

static int baseline(struct cc_ctx *c, char *err, size_t errlen)
{
	if (c->base_done)
		return 0;
	const char *src = cc_probe_file(err, errlen);
	if (!src)
		return -1;
	char obj[4200];
	snprintf(obj, sizeof obj, "%s/ccflag-base.o", tmpdir_path());
	struct run_result r;
	if (cc_compile(c, NULL, "-Werror", src, obj, &r, err, errlen))
		return -1;
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
		run_result_free(&r);
		return -1;
	}
	c->base_err = r.err;
	r.err = NULL;
	run_result_free(&r);
	c->base_done = 1;
	return 0;
}

int cc_flags_accepted(struct cc_ctx *c, const struct strv *flags, char *why, size_t whylen,
                      char *err, size_t errlen)
{
	static unsigned seq;
	if (baseline(c, err, errlen))
		return -1;
	struct strv extra = { 0 };
	strv_push(&extra, "-Werror");
	for (size_t i = 0; i < flags->n; i++) {
		const char *f = flags->v[i];
		if (!strncmp(f, "-Wno-", 5) && f[5]) {
			char pos[512];
			snprintf(pos, sizeof pos, "-W%s", f + 5);
			strv_push(&extra, pos);
		} else {
			strv_push(&extra, f);
		}
	}
	char obj[4200];
	snprintf(obj, sizeof obj, "%s/ccflag-%u.o", tmpdir_path(), seq++);
	struct run_result r;
	int rc = cc_compile(c, &extra, NULL, cc_probe_file(err, errlen), obj, &r, err, errlen);
	strv_free(&extra);
	if (rc)
		return -1;
	if (r.signal || r.timed_out) {
		run_describe(flags->v, &r, err, errlen);
		run_result_free(&r);
		return -1;
	}
	size_t n = 0;
	/* GNU as's "Assembler messages:" says less than the error under it */
	const char *line = new_line(r.err, c->base_err, "rror", &n);
	if (!line)
		line = new_line(r.err, c->base_err, "", &n);
	int ok = r.exited && r.status == 0 && !line;
	if (!ok) {
		if (!line)
			line = "rejected without a message", n = strlen(line);
		snprintf(why, whylen, "%.*s", (int)n, line);
	} else {
		why[0] = 0;
	}
	run_result_free(&r);
	return ok;
}
