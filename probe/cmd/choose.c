/* SPDX-License-Identifier: MIT */
/* asmcap choose SPEC: build every variant of a C function with the
 * configured toolchain, check they compute the same thing, measure, and
 * name the winner as ASMCAP_CHOICE_<NAME>.
 *
 * The spec (key: value lines, '#' comments; paths relative to the spec):
 *   name: sha1_store           variable suffix: ASMCAP_CHOICE_SHA1_STORE
 *   source: sha1.c
 *   function: sha1_block       measured for frame and code size
 *   check: sha1_check          uint64_t f(void): digest of the outputs
 *   bench: sha1_bench          size_t f(size_t iters): returns bytes done
 *   metric: cycles | frame | size
 *   default: plain
 *   variant: plain = -DW_STORE=0     (one line per variant)
 *
 * The default is kept unless another variant is better by more than the
 * noise: for cycles its slowest run must beat the default's fastest and
 * its median must be at least 3% lower.  ASMCAP_CHOICE_<NAME> in the
 * environment overrides the measurement.  When the variants cannot run
 * here (a cross toolchain) the choice falls back to the frame size and
 * says so. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "choose-spec.h"
#include "cmds.h"
#include "file.h"
#include "stackframe.h"
#include "opt.h"
#include "out.h"
#include "xalloc.h"

/* The test driver (probe/cmd/driver/choose-driver.c, carried in build/catalog.c). */
extern const char choose_driver_c[];

/* The test driver's object, compiled once for the whole run (it names the
 * spec's check and bench).  *obj is its path.  1 built, 0 it does not
 * compile with this toolchain (why set), -1 toolchain error. */
static int driver_object(struct cc_ctx *c, const struct spec *sp, const char **obj, char *why, size_t whylen,
                         char *err, size_t errlen)
{
	static char driver_o[4200];
	static int driver_state;        /* 0 not built, 1 ok, 2 failed */
	if (!driver_state) {
		char path[4200];
		snprintf(path, sizeof path, "%s/choose-driver.c", tmpdir_path());
		snprintf(driver_o, sizeof driver_o, "%s/choose-driver.o", tmpdir_path());
		if (file_write(path, choose_driver_c)) {
			snprintf(err, errlen, "cannot write %.900s", path);
			return -1;
		}
		struct strv defs = { 0 };
		char *check = xprintf("-DCHOOSE_CHECK=%s", sp->check);
		char *bench = sp->bench ? xprintf("-DCHOOSE_BENCH=%s", sp->bench) : NULL;
		strv_push(&defs, check);
		if (bench)
			strv_push(&defs, bench);
		free(check);
		free(bench);
		struct run_result r;
		int rc = cc_compile(c, &defs, NULL, path, driver_o, &r, err, errlen);
		strv_free(&defs);
		if (rc)
			return -1;
		driver_state = r.exited && r.status == 0 ? 1 : 2;
		run_result_free(&r);
	}
	if (driver_state == 2) {
		snprintf(why, whylen, "cannot run here: the test driver does not compile with this toolchain");
		return 0;
	}
	*obj = driver_o;
	return 1;
}

/* The variant's source compiled to obj with its flags (left in *flags:
 * the link needs them too).  1 compiled, -1 toolchain error or the
 * variant does not compile, -2 the spec names a function src lacks. */
static int compile_variant(struct cc_ctx *c, const struct spec *sp, const struct variant *v, const char *src,
                           const char *obj, struct strv *flags, char *err, size_t errlen)
{
	struct run_result r;
	if (argv_split_words(v->flags, flags, err, errlen) || cc_compile(c, flags, NULL, src, obj, &r, err, errlen))
		return -1;
	int ok = r.exited && r.status == 0;
	run_result_free(&r);
	if (!ok) {
		snprintf(err, errlen, "variant %s does not compile", v->name);
		return -1;
	}
	/* A spec naming a function the source lacks is the spec's error, not a
	 * toolchain that cannot link here. */
	const char *need[] = { sp->check, sp->bench };
	for (size_t k = 0; k < 2; k++)
		if (need[k] && stackframe_object_defines(obj, need[k]) == 0) {
			snprintf(err, errlen, "%.900s: the spec's function %s is not defined there", src, need[k]);
			return -2;
		}
	return 1;
}

/* exe linked from the driver and the variant's object.  1 linked, 0 not
 * (why has the linker's line), -1 toolchain error. */
static int link_exe(const struct cc_ctx *c, const struct strv *flags, const char *driver_o, const char *obj,
                    const char *exe, char *why, size_t whylen, char *err, size_t errlen)
{
	struct strv argv = { 0 };
	strv_append(&argv, &c->cc);
	strv_append(&argv, &c->cflags);
	strv_append(&argv, flags);       /* link flags too: -fsanitize needs its runtime */
	strv_push(&argv, driver_o);
	strv_push(&argv, obj);
	strv_push(&argv, "-o");
	strv_push(&argv, exe);
	struct run_result r;
	int rc = run_cmd(argv.v, NULL, 0, &r, err, errlen);
	strv_free(&argv);
	if (rc)
		return -1;
	int ok = r.exited && r.status == 0;
	if (!ok) {
		size_t n;
		const char *line = cc_error_line(r.err, &n);
		snprintf(why, whylen, "cannot link here: %.*s", (int)n, line);
	}
	run_result_free(&r);
	return ok;
}

/* The variant's check run, under the wrapper when one is given, and the
 * digest it prints read.  1 checked, 0 cannot run here (why set), -1
 * cannot run it at all, -2 a wrong --run, -3 the check failed. */
static int run_check(struct variant *v, const struct strv *wrap, char *why, size_t whylen, char *err,
                     size_t errlen)
{
	struct strv run = { 0 };
	strv_append(&run, wrap);
	strv_push(&run, v->exe);
	strv_push(&run, "check");
	char what[512];
	struct run_result r;
	if (run_cmd(run.v, NULL, 0, &r, what, sizeof what)) {
		strv_free(&run);
		snprintf(err, errlen, "%s%s", wrap->n ? "--run: " : "", what);
		return wrap->n ? -2 : -1;       /* a wrong --run is a usage error */
	}
	int ok = r.exited && r.status == 0 && sscanf(r.out, "%llx", &v->digest) == 1;
	/* Only the shell's 126/127 on this machine's own code (a kernel without
	 * IA32 emulation) means "cannot run here"; a check that crashes, hangs
	 * or fails is the variant's fault. */
	int foreign = !wrap->n && r.exited && (r.status == 126 || r.status == 127);
	run_describe(run.v, &r, what, sizeof what);
	if (!ok && foreign)
		snprintf(why, whylen, "cannot run here: exec failed"), v->native = 0;
	else if (!ok)
		snprintf(err, errlen, "variant %s fails its check: %s%s", v->name, what,
		         r.exited && r.status == 0 ? " (no digest printed)" : "");
	strv_free(&run);
	run_result_free(&r);
	return ok ? 1 : foreign ? 0 : -3;
}

/* Build the driver object once, then link one executable per variant and
 * run its check, under the wrapper when one is given (an emulator for a
 * cross toolchain's code; v->native says whether it may be timed).
 * Returns 1 checked, 0 not (why set), -1 toolchain error, -2 spec or
 * usage error, -3 the variant's check crashed, timed out or failed. */
static int link_variant(struct cc_ctx *c, struct spec *sp, struct variant *v, const char *src,
                        const struct strv *wrap, char *why, size_t whylen, char *err, size_t errlen)
{
	static unsigned seq;
	const char *driver_o;
	int rc = driver_object(c, sp, &driver_o, why, whylen, err, errlen);
	if (rc != 1)
		return rc;
	char obj[4200];
	snprintf(obj, sizeof obj, "%s/choose-%u.o", tmpdir_path(), seq);
	snprintf(v->exe, sizeof v->exe, "%s/choose-%u", tmpdir_path(), seq++);
	struct strv flags = { 0 };
	rc = compile_variant(c, sp, v, src, obj, &flags, err, errlen);
	if (rc == 1)
		rc = link_exe(c, &flags, driver_o, obj, v->exe, why, whylen, err, errlen);
	strv_free(&flags);
	if (rc != 1)
		return rc;
	/* Code for another machine is never executed directly: exec would fail,
	 * or a binfmt emulator would run it and its timing would mean nothing. */
	char machine[96];
	const struct arch *host = arch_host();
	v->native = stackframe_object_native(obj, machine, sizeof machine) == 1;
	if (!v->native)
		snprintf(why, whylen, "cannot run %s code on this %s machine", machine, host ? host->name : "unknown");
	if (!v->native && !wrap->n)
		return 0;
	return run_check(v, wrap, why, whylen, err, errlen);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int bench_round(struct variant *v, double *out, char *err, size_t errlen)
{
	char *run[] = { v->exe, "bench", NULL };
	struct run_result r;
	if (run_cmd(run, NULL, 0, &r, err, errlen))
		return -1;
	int ok = r.exited && r.status == 0 && sscanf(r.out, "%lf", out) == 1 && *out > 0;
	if (!ok) {
		char what[512];
		run_describe(run, &r, what, sizeof what);
		snprintf(err, errlen, "variant %s fails its benchmark: %s", v->name, what);
	}
	run_result_free(&r);
	return ok ? 0 : -1;
}

static double metric_of(const struct variant *v, const char *metric)
{
	return !strcmp(metric, "cycles") ? v->med : !strcmp(metric, "frame") ? (double)v->fr.frame
	       : (double)v->fr.code;
}

/* What running the variants here told, decided per variant: one that
 * cannot link or run here changes nothing for the others. */
struct run_facts {
	const struct variant *def;
	int any;                /* some variant checked: unchecked ones are never chosen */
	int timeable;           /* the default is timed, so the others can be measured against it */
};

static int timed(const struct variant *v)
{
	return v->checked && v->native;
}

/* May v be chosen under this metric?  The default always may (keeping it
 * is the choice); another only when it was measured like the default. */
static int candidate(const struct variant *v, const struct run_facts *f, const char *metric)
{
	if (!v->fr.available)
		return 0;
	if (v == f->def)
		return 1;
	return !strcmp(metric, "cycles") ? timed(v) : !f->any || v->checked;
}

/* For people: whether the variants were timed and checked, and how. */
static void say_how_checked(FILE *fig, const char *metric, const struct run_facts *f, const char *wrap)
{
	if (!f->timeable)
		fprintf(fig, "asmcap choose: %s: nothing timed; the static metric decides: %s\n", f->def->why,
		        !strcmp(metric, "size") ? "code size (bytes of the function in the object)"
		        : "frame size (stack bytes, from -fstack-usage or the object's prologue)");
	if (f->any && wrap)
		fprintf(fig, "asmcap choose: results checked under `%s' (correctness only: never timed)\n", wrap);
	else if (!f->any)
		fprintf(fig, "asmcap choose: results not checked (%s)%s\n", f->def->why, wrap ? ""
		        : "; --run CMD checks them under an emulator, e.g. --run 'qemu-aarch64 -L /usr/aarch64-linux-gnu'");
}

struct choose_cmd {
	const char *file;       /* the spec */
	const char *cc, *cflags, *output;
	const char *run;        /* the check's wrapper (an emulator), never the timing's */
	enum out_format fmt;
	unsigned rounds;
};

#define OPT_STRUCT struct choose_cmd
static const struct opt choose_options[] = {
	CC_OPTIONS,
	OPT_TEXT("--run", "CMD", run, "run each variant's check under CMD (an emulator), never its timing"),
	OPT_COUNT("--rounds", "N", rounds, 3, 101, "benchmark rounds, the variants interleaved (3..101, default 7)"),
	OPT_TIMEOUT("--timeout", "give up on a compiler or check run after SEC seconds"),
	OPT_OUTPUT,
	OPT_TABLE_END,
};
#undef OPT_STRUCT

/* Every variant's frame measured and, where it compiles, linked and
 * checked (under wrap when given).  0, or the exit code (reported). */
static int choose_build(struct spec *sp, struct cc_ctx *c, const char *src, const struct strv *wrap,
                        struct run_facts *f)
{
	char err[1024];
	int rc = 0;
	for (size_t k = 0; k < sp->nv && !rc; k++) {
		struct variant *v = &sp->v[k];
		struct strv flags = { 0 };
		int m = argv_split_words(v->flags, &flags, err, sizeof err) ? -2
		        : stackframe_measure(c, src, sp->function, &flags, &v->fr, err, sizeof err);
		strv_free(&flags);
		if (m < 0) {
			fprintf(stderr, "asmcap choose: %s\n", err);
			return m == -1 ? 3 : 2;
		}
		if (!v->fr.available)
			continue;
		int ok = link_variant(c, sp, v, src, wrap, v->why, sizeof v->why, err, sizeof err);
		if (ok < 0) {
			fprintf(stderr, "asmcap choose: %s\n", err);
			rc = ok == -1 ? 3 : ok == -2 ? 2 : 1;
		}
		v->checked = ok == 1;
		f->any |= v->checked;
	}
	f->timeable = timed(f->def);
	return rc;
}

/* Every checked variant must compute what the default computes (or, when
 * the default could not be checked, what the first checked one does):
 * 0, or 1. */
static int choose_same_result(const struct spec *sp, const struct variant *def)
{
	const struct variant *ref = def;
	for (size_t k = 0; !ref->checked && k < sp->nv; k++)
		ref = &sp->v[k];
	for (size_t k = 0; k < sp->nv; k++)
		if (sp->v[k].checked && sp->v[k].digest != ref->digest) {
			fprintf(stderr, "asmcap choose: variant %s computes a different result than %s "
			        "(check digest %016llx, expected %016llx): rejected\n",
			        sp->v[k].name, ref->name, sp->v[k].digest, ref->digest);
			return 1;
		}
	return 0;
}

/* The benchmark, `rounds' times, interleaved (drift hits all alike); each
 * variant's median, min and max.  0, or 1 (a run failed; reported). */
static int choose_bench(struct spec *sp, int rounds)
{
	char err[1024];
	for (size_t k = 0; k < sp->nv; k++)
		sp->v[k].cpb = xcalloc((size_t)rounds, sizeof(double));
	for (int r = 0; r < rounds; r++)
		for (size_t k = 0; k < sp->nv; k++)
			if (timed(&sp->v[k]) && bench_round(&sp->v[k], &sp->v[k].cpb[r], err, sizeof err)) {
				fprintf(stderr, "asmcap choose: %s\n", err);
				return 1;
			}
	for (size_t k = 0; k < sp->nv; k++) {
		struct variant *v = &sp->v[k];
		if (!timed(v)) {
			free(v->cpb);
			v->cpb = NULL;  /* the table shows no figures it does not have */
			continue;
		}
		qsort(v->cpb, (size_t)rounds, sizeof(double), cmp_double);
		v->min = v->cpb[0], v->max = v->cpb[rounds - 1], v->med = v->cpb[rounds / 2];
	}
	return 0;
}

/* The winner: the default unless another is better by more than the noise. */
static struct variant *choose_decide(struct spec *sp, struct variant *def, const char *metric,
                                     const struct run_facts *f)
{
	struct variant *win = def;
	for (size_t k = 0; k < sp->nv; k++) {
		struct variant *v = &sp->v[k];
		if (!candidate(v, f, metric) || v == def)
			continue;
		double m = metric_of(v, metric), best = metric_of(win, metric);
		int better = !strcmp(metric, "cycles")
		             ? m < best && v->max < def->min && m <= 0.97 * def->med
		             : m >= 0 && m < best;
		if (better)
			win = v;
	}
	return win;
}

/* Figures for people (stderr when the output is for a build). */
static void choose_table(FILE *fig, const struct spec *sp, const struct variant *win)
{
	fprintf(fig, "%-12s %8s %8s %10s %10s %10s  %s\n", "variant", "frame", "code", "cyc/B med", "min", "max", "flags");
	for (size_t k = 0; k < sp->nv; k++) {
		const struct variant *v = &sp->v[k];
		if (!v->fr.available) {
			fprintf(fig, "%-12s %8s %8s %10s %10s %10s  %s  (unavailable: %s)\n", v->name, "-", "-", "-",
			        "-", "-", v->flags, v->fr.why);
			continue;
		}
		char med[32] = "-", mn[32] = "-", mx[32] = "-";
		if (v->cpb) {
			snprintf(med, sizeof med, "%.2f", v->med);
			snprintf(mn, sizeof mn, "%.2f", v->min);
			snprintf(mx, sizeof mx, "%.2f", v->max);
		}
		fprintf(fig, "%-12s %8ld %8ld %10s %10s %10s  %s%s%s%s%s\n", v->name, v->fr.frame, v->fr.code, med, mn,
		        mx, v->flags, v == win ? "  <- chosen" : "", v->checked ? "" : "  (not checked: ",
		        v->checked ? "" : v->why, v->checked ? "" : ")");
	}
}

/* ASMCAP_CHOICE_<NAME> overrides: *win and the reason, or 2 (it names no
 * variant; reported). */
static int choose_override(const struct spec *sp, const char *file, const char *envname, struct variant **win,
                           char *reason, size_t len)
{
	const char *over = getenv(envname);
	if (!over || !*over)
		return 0;
	for (size_t k = 0; k < sp->nv; k++)
		if (!strcmp(sp->v[k].name, over)) {
			*win = (struct variant *)&sp->v[k];
			snprintf(reason, len, "overridden by %s", envname);
			return 0;
		}
	fprintf(stderr, "asmcap choose: %s=%s names no variant of %s\n", envname, over, file);
	return 2;
}

/* Built and checked: measure, decide, report.  0, or the exit code. */
static int choose_report(struct spec *sp, const struct choose_cmd *c, struct variant *def,
                         const struct run_facts *f)
{
	int fallback = !f->timeable && !strcmp(sp->metric, "cycles");
	const char *metric = fallback ? "frame" : sp->metric;
	if (!strcmp(metric, "cycles") && choose_bench(sp, (int)c->rounds))
		return 1;
	struct variant *win = choose_decide(sp, def, metric, f);
	char envname[256], reason[600];
	snprintf(envname, sizeof envname, "ASMCAP_CHOICE_%s", sp->name);
	for (char *p = envname; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	if (fallback)
		snprintf(reason, sizeof reason, "chosen by frame size: %s", def->why);
	else
		snprintf(reason, sizeof reason, win == def ? "default kept: no variant wins by more than the noise"
		         : "wins on %s", metric);
	if (choose_override(sp, c->file, envname, &win, reason, sizeof reason))
		return 2;
	FILE *fig = c->fmt == OUT_TEXT && !c->output ? stdout : stderr;
	say_how_checked(fig, metric, f, c->run);
	choose_table(fig, sp, win);
	fprintf(fig, "%s: %s (%s)\n", envname, win->name, reason);
	if (c->fmt == OUT_TEXT && !c->output)
		return 0;
	struct out_var var = { envname, win->name, reason, 0 };
	struct buf b = { 0 };
	out_vars(&b, c->fmt, "asmcap choose", &var, 1);
	int rc = file_output("asmcap choose", c->output, &b);
	buf_free(&b);
	return rc;
}

static int choose_main(void *cmd, const struct opts *s)
{
	struct choose_cmd *c = cmd;
	struct spec sp;
	memset(&sp, 0, sizeof sp);
	c->file = s->args[0];
	if (choose_spec_load(&sp, c->file)) {
		choose_spec_free(&sp);
		return 2;
	}
	char err[1024], *src = xprintf("%s/%s", sp.dir, sp.source);
	struct cc_ctx cc;
	struct strv wrap = { 0 };
	struct variant *def = &sp.v[0];
	while (strcmp(def->name, sp.def))
		def++;
	struct run_facts f = { .def = def };
	int rc = 0;
	if (cc_init(&cc, c->cc, c->cflags, err, sizeof err) || (c->run && argv_split_words(c->run, &wrap, err, sizeof err))) {
		fprintf(stderr, "asmcap choose: %s\n", err);
		rc = 2;
	} else
		rc = choose_build(&sp, &cc, src, &wrap, &f);
	if (!rc && !def->fr.available) {
		fprintf(stderr, "asmcap choose: the default variant %s is unavailable: %s\n", def->name, def->fr.why);
		rc = 2;
	}
	if (!rc && f.any)
		rc = choose_same_result(&sp, def);
	if (!rc)
		rc = choose_report(&sp, c, def, &f);
	strv_free(&wrap);
	cc_free(&cc);
	choose_spec_free(&sp);
	free(src);
	return rc;
}

static const struct choose_cmd choose_defaults = {.fmt = OUT_TEXT, .rounds = 7};

const struct command cmd_choose = {
	"choose", {"asmcap choose", "asmcap choose SPEC", NULL, NULL, choose_options, 1, 1, "choose needs a SPEC", NULL},
	sizeof(struct choose_cmd), &choose_defaults, choose_main,
};
