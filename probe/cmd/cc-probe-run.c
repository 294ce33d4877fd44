/* SPDX-License-Identifier: MIT */
/* cc-probe's compiles: each answer's C file and command, the control
 * compile, and the rounds of retry.h (the assembler probe's rule): which
 * failures name the probe (a rejection) and which name nothing. */
#include "cc-probe.h"
#include "file.h"
#include "obj.h"
#include "out.h"
#include "tmpdir.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The source of an answer: ASMCAP_TARGET for this way, then the body
 * with its line numbers as in the template (messages name the file). */
static char *source(const struct answer *a)
{
	const struct cprobe *p = a->p;
	char *attr = p->target && !a->m ? xprintf("__attribute__((target(\"%s\")))", p->target) : xstrdup("");
	/* defined only where used: -Wunused-macros */
	char *s = xprintf("%s%s%s#line %u \"%s\"\n%s", strstr(p->body, "ASMCAP_TARGET") ? "#define ASMCAP_TARGET " : "",
	                  attr, strstr(p->body, "ASMCAP_TARGET") ? "\n" : "", p->body_line, p->path, p->body);
	free(attr);
	return s;
}

/* Set up the compile of answer a (NULL: the control, with extra flags
 * `extra' when not NULL).  0, or 3 with err. */
static int unit_setup(struct cp *c, struct compile *u, struct answer *a, const char *extra, char *err, size_t errlen)
{
	struct strv fl = {0};
	memset(u, 0, sizeof *u);
	u->a = a;
	u->obj = xprintf("%s/cprobe%u.o", tmpdir_path(), c->seq);
	if (a) {
		char *text = source(a);
		u->src = xprintf("%s/cprobe%u.c", tmpdir_path(), c->seq);
		int bad = file_write(u->src, text);
		free(text);
		if (bad) {
			snprintf(err, errlen, "cannot write %s", u->src);
			return 3;
		}
	} else {
		const char *src = cc_probe_file(err, errlen);
		if (!src)
			return 3;
		u->src = xstrdup(src);
	}
	c->seq++;
	if ((a && a->m && argv_split_words(a->p->mflags, &fl, err, errlen)) || (extra && argv_split_words(extra, &fl, err, errlen))) {
		strv_free(&fl);
		return 3;
	}
	cc_argv(&c->cc, &fl, u->src, u->obj, &u->argv);
	strv_free(&fl);
	u->job.argv = u->argv.v;
	return 0;
}

static void unit_done(struct compile *u)
{
	strv_free(&u->argv);
	free(u->src);
	free(u->obj);
	run_result_free(&u->job.r);
}

/* The whole word w occurs in line[0..len). */
static int names_word(const char *line, size_t len, const char *w)
{
	size_t n = strlen(w);
	for (const char *s = line; n && s + n <= line + len; s++)
		if (!strncmp(s, w, n) && (s == line || !strchr("abcdefghijklmnopqrstuvwxyz0123456789-=_", s[-1])) &&
		    (s + n == line + len || !strchr("abcdefghijklmnopqrstuvwxyz0123456789-=_,", s[n])))
			return 1;
	return 0;
}

/* The first line of the compiler's messages that names the answer's
 * source (`path:LINE') or one of its -m flags and says one of kinds
 * (NULL-terminated; NULL: any line); NULL if none (malloc'd). */
static char *own_line(const struct answer *a, const char *text, const char *const *kinds)
{
	struct strv fl = {0};
	char e[64], *found = NULL, *at = xprintf("%s:", a->p->path);
	if (a->m)
		argv_split_words(a->p->mflags, &fl, e, sizeof e);
	for (const char *l = text; *l && !found; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		size_t len = strcspn(l, "\n");
		const char *p = l;
		int ours = 0;
		while (!ours && (p = strstr(p, at)) && p < l + len)
			ours = p[strlen(at)] >= '0' && p[strlen(at)] <= '9', p++;
		for (size_t k = 0; k < fl.n && !ours; k++)
			ours = names_word(l, len, fl.v[k]);
		char *line = ours ? out_one_line(l, len) : NULL;
		for (const char *const *k = kinds; line && k && *k && !found; k++)
			if (strstr(line, *k))
				found = line;
		if (line && !kinds)
			found = line;
		else if (line != found)
			free(line);
	}
	free(at);
	strv_free(&fl);
	return found;
}

/* The first control compiled: the target from its object (from a
 * machine-code build of the same file when the flags make LTO bitcode).
 * Ends u.  0, or 3 with err. */
static int control_target(struct cp *c, struct compile *u, char *err, size_t errlen)
{
	size_t len;
	uint8_t *buf = file_read(u->obj, &len);
	struct obj o;
	char why[256];
	int r = 0;
	if (buf && obj_is_bitcode(buf, len)) {
		unit_done(u);
		free(buf);
		if (unit_setup(c, u, NULL, "-fno-lto", err, errlen))
			return 3;
		run_jobs(&u->job, 1, 1);
		buf = u->job.r.exited && !u->job.r.status ? file_read(u->obj, &len) : NULL;
	}
	if (!buf || obj_parse(&o, buf, len, why, sizeof why)) {
		char *cmd = argv_brief(u->argv.v);
		snprintf(err, errlen, "`%s' exited 0 but wrote no object asmcap reads%s%s", cmd, buf ? ": " : "",
		         buf ? why : "");
		free(cmd);
		r = 3;
	} else {
		c->target = arch_of_obj(&o);
		char m[32];
		snprintf(c->arch, sizeof c->arch, "%s", arch_machine_name(&o, m, sizeof m));
		snprintf(c->format, sizeof c->format, "%s", obj_format_name(&o));
		obj_free(&o);
	}
	free(buf);
	unit_done(u);
	return r;
}

/* One control compile (a tiny clean C file with the build's flags,
 * retry_kind.control_once); the first also asks the driver what it runs
 * (-###, for the cache), and the first that passes learns the target
 * from its object.  0, or 3 with err. */
static int control_once(void *ctx, int *fatal, char *err, size_t errlen)
{
	struct cp *c = ctx;
	struct strv hash = {0};
	struct compile u;
	struct run_job jobs[2];
	int r = 0;
	*fatal = 1;
	if (unit_setup(c, &u, NULL, NULL, err, errlen))
		return 3;
	memset(jobs, 0, sizeof jobs);
	jobs[0] = u.job;
	if (c->ask_driver) {
		c->ask_driver = 0;
		strv_append(&hash, &u.argv);
		strv_push(&hash, "-###");
		jobs[1].argv = hash.v;
	}
	run_jobs(jobs, 1 + !!hash.n, 0);
	u.job = jobs[0];
	const struct run_result *rr = &u.job.r;
	if (hash.n) {
		for (const char *l = jobs[1].r.err; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
			int cc1as;
			free(driver_command(l, strcspn(l, "\n"), &c->deps, &cc1as));
		}
		run_result_free(&jobs[1].r);
		strv_free(&hash);
	}
	if (u.job.start_failed || rr->not_found || rr->timed_out) {
		if (u.job.start_failed && !rr->not_found)
			snprintf(err, errlen, "cannot run `%s': %s", u.argv.v[0], u.job.start_err);
		else
			run_describe(u.argv.v, rr, err, errlen);
		unit_done(&u);
		return 3;       /* not found, or a hang: another try costs the same */
	}
	if (!rr->exited || rr->status) {
		char *cmd = argv_brief(u.argv.v);
		size_t n;
		const char *line = cc_error_line(rr->err, &n);
		if (rr->exited)
			snprintf(err, errlen, "toolchain unusable: `%s' exited with status %d%s%.*s", cmd, rr->status,
			         n ? ": " : "", (int)n, line);
		else
			run_describe(u.argv.v, rr, err, errlen);
		free(cmd);
		*fatal = 0;
		r = 3;
	} else if (c->learn) {
		c->learn = 0;
		return control_target(c, &u, err, errlen);
	}
	unit_done(&u);
	return r;
}

/* The assembler's asmrun_complaint about the compiler's own output, "FILE:N:
 * Error: ..." after "FILE: Assembler messages:", told without FILE: it is
 * the compiler's temporary (ccXXXXXX.s, a new name each run) or
 * "{standard input}" under -pipe, and only the words can reproduce alike.
 * 1 and what set, or 0 (no such message). */
static int assembler_words(const char *text, char *what, size_t n)
{
	static const char head[] = ": Assembler messages:";
	const char *h = strstr(text, head);
	if (!h)
		return 0;
	const char *file = h;
	while (file > text && file[-1] != '\n')
		file--;
	size_t flen = (size_t)(h - file);
	/* the first of FILE's lines that is an error, else the first of them */
	for (int any = 0; any < 2; any++)
		for (const char *l = h + strcspn(h, "\n"); *l; l += strcspn(l, "\n")) {
			l += *l == '\n';
			size_t len = strcspn(l, "\n");
			const char *err = strstr(l, "Error:");
			if (len > flen + 1 && !strncmp(l, file, flen) && l[flen] == ':' && (any || (err && err < l + len))) {
				size_t m = len - flen - 1;
				snprintf(what, n, "the assembler, on the compiler's output: line %.*s", (int)(m < 300 ? m : 300),
				         l + flen + 1);
				return 1;
			}
		}
	return 0;
}

/* A failure naming neither the source nor its flags, in words that are the
 * same each time it happens alike (the command names new files). */
static void failure_words(const struct run_result *rr, char *what, size_t n)
{
	size_t len;
	const char *e = cc_error_line(rr->err, &len);
	if (!rr->exited)
		snprintf(what, n, "the compiler was killed by %s", run_signal_name(rr->signal));
	else if (!assembler_words(rr->err, what, n))
		snprintf(what, n, "%.*s", (int)(len < 300 ? len : 300), len ? e : "exit status");
}

/* Compile answers todo[0..n) (indices of c->a, --jobs at a time) and
 * judge them; those that failed naming nothing are left in todo[0..*left)
 * (retry_kind.round).  0, or 3 with err. */
static int round_of(void *ctx, size_t *todo, size_t n, size_t *left, char *err, size_t errlen)
{
	struct cp *c = ctx;
	struct compile *u = xcalloc(n + 1, sizeof *u);
	struct run_job *jobs = xcalloc(n + 1, sizeof *jobs);
	size_t made = 0;
	int r = 0;
	*left = 0;
	for (; made < n && !r; made++)
		r = unit_setup(c, &u[made], &c->a[todo[made]], NULL, err, errlen);
	if (!r) {
		for (size_t i = 0; i < n; i++)
			jobs[i] = u[i].job;
		run_jobs(jobs, n, c->jobs);
		for (size_t i = 0; i < n; i++)
			u[i].job = jobs[i];
	}
	for (size_t i = 0; i < n && !r; i++) {
		struct answer *a = &c->a[todo[i]];
		const struct run_result *rr = &u[i].job.r;
		char *line;
		if (u[i].job.start_failed || rr->not_found || rr->timed_out) {
			if (u[i].job.start_failed && !rr->not_found)
				snprintf(err, errlen, "cannot run `%s': %s", u[i].argv.v[0], u[i].job.start_err);
			else
				run_describe(u[i].argv.v, rr, err, errlen);
			r = 3;
			break;
		}
		if (rr->exited && !rr->status) {
			retry_decided(&c->trust, &a->tries);
			if ((line = own_line(a, rr->err, (const char *const[]){"warning", "Warning:", NULL})))
				cc_probe_answer_set(a, ST_NO, xprintf("the compiler warned: %s", line), rr->ms);
			else
				cc_probe_verify(a, u[i].obj, rr->ms);
			free(line);
			continue;
		}
		if (rr->exited && (line = own_line(a, rr->err, NULL))) {
			/* its messages point into the probe or at its flags: a
			 * rejection, told by the first of them that is a diagnostic
			 * (gcc's always_inline error names the header, and only a
			 * note names the probe) */
			size_t len;
			const char *e = cc_error_line(rr->err, &len);
			free(line);
			line = own_line(a, rr->err, (const char *const[]){"error", "Error:", "warning", "Warning:", NULL});
			if (!line)
				line = out_one_line(e, len);
			cc_probe_answer_set(a, ST_NO, xprintf("rejected: %s", line), rr->ms);
			free(line);
			retry_decided(&c->trust, &a->tries);
			continue;
		}
		char what[512];
		failure_words(rr, what, sizeof what);
		char *why = xprintf("%s: %s", a->name, what);
		retry_failed(&c->trust, &a->tries, what, !rr->exited, why);
		free(why);
		cc_probe_answer_set(a, ST_NO, xprintf("rejected: %s", what), rr->ms);      /* if it settles so */
		todo[(*left)++] = todo[i];
	}
	for (size_t i = 0; i < made; i++)
		unit_done(&u[i]);
	free(u);
	free(jobs);
	return r;
}

static struct retry_tries *answer_tries(void *ctx, size_t i)
{
	return &((struct cp *)ctx)->a[i].tries;
}

/* Answer i compiled alone once more (retry_kind.again). */
static int again(void *ctx, size_t i, int *same, char *err, size_t errlen)
{
	struct cp *c = ctx;
	size_t one = i, left;
	int r = round_of(c, &one, 1, &left, err, errlen);
	*same = !r && c->a[i].st == ST_BROKEN && !strcmp(c->a[i].reason, c->was[i]);
	return r;
}

static void was_broken(void *ctx, size_t i, int changed, char *out, size_t len)
{
	const struct cp *c = ctx;
	const struct answer *a = &c->a[i];
	snprintf(out, len, "%s was broken (%s)%s%s%s%s", a->name, c->was[i], changed ? ", then " : "",
	         changed ? engine_status_name(a->st) : "", changed ? ": " : "", changed ? a->reason : "");
}

/* Every wanted answer of the target's catalog, in rounds, then the
 * broken ones confirmed (retry.h).  0, or 3 with err. */
int cc_probe_all(struct cp *c, char *err, size_t errlen)
{
	struct retry_kind k = {c, control_once, round_of, answer_tries, again, was_broken};
	size_t *todo = xcalloc(c->n + 1, sizeof *todo), n = 0;
	c->ask_driver = c->learn = 1;
	int r = retry_control(&c->trust, &k, err, errlen);
	for (size_t i = 0; i < c->n && !r; i++) {
		struct answer *a = &c->a[i];
		if (!a->want)
			continue;
		if (a->arch != c->target)
			cc_probe_answer_set(a, ST_SKIPPED, xprintf("not for this target (a probe of %s; the objects are %s)",
			                                  a->arch->name, c->arch), 0);
		else
			todo[n++] = i;
	}
	if (!r && n)
		r = retry_rounds(&c->trust, &k, todo, n, err, errlen);
	c->was = xcalloc(c->n + 1, sizeof *c->was);
	for (size_t i = n = 0; i < c->n && !r; i++)
		if (c->a[i].want && c->a[i].st == ST_BROKEN) {
			c->was[i] = xstrdup(c->a[i].reason);
			todo[n++] = i;
		}
	if (!r)
		r = retry_confirm_broken(&c->trust, &k, todo, n, err, errlen);
	for (size_t i = 0; i < c->n; i++)
		free(c->was[i]);
	free(c->was);
	c->was = NULL;
	free(todo);
	return r;
}
