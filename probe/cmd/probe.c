/* SPDX-License-Identifier: MIT */
/* asmcap probe | list | explain: options, cache, output, --require. */
#include "baseline.h"
#include "cache.h"
#include "arch.h"
#include "cmds.h"
#include "file.h"
#include "out.h"
#include "engine.h"
#include "report.h"
#include "opt.h"
#include "run.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct cli {
	struct probe_opts o;
	enum out_format fmt;
	const char *output, *cache, *log, *require, *baseline;
	const char *arch;               /* list */
	int way_set;                    /* --cc, --as, --nasm or --masm given */
};

/* The ways in, named in the synopsis (one of them). */
#define WAYS_SYNOPSIS "[--cc CMD | --as CMD | --nasm CMD | --masm CMD]"

static const char probe_text[] =
	"       asmcap list ...              the catalog\n"
	"       asmcap explain FEATURE ...   one feature's probe: command, snippet, stderr, bytes\n"
	"       asmcap cpu | audit | diff | legacy | cc-flag | cc-probe | frame | choose ...   (`asmcap CMD --help': its usage)\n"
	"exit: 0 probed, 1 a --require'd feature is not yes, 2 usage or output, 3 the toolchain is unusable,\n"
	"      4 out of memory\n";

static const char list_text[] =
	"  the catalog: each feature of each architecture, its summary and what it requires\n";

static const char explain_text[] =
	"  the probe of one feature: the command, the snippet, stderr, the expected and the actual bytes\n";

/* --cc, --as, --nasm, --masm: the way in (the option's name) and its command. */
static int set_way(void *cmd, const struct opts *s, const struct opt *o, const char *val)
{
	struct cli *c = cmd;
	if (c->way_set && strcmp(c->o.way, o->name + 2))
		return opt_usage(s, "one way in: --cc, --as, --nasm or --masm, not two", o->name);
	c->way_set = 1;
	c->o.way = o->name + 2;
	c->o.cmd = val;
	return 0;
}

static int set_mode(void *cmd, const struct opts *s, const struct opt *o, const char *val)
{
	(void)o;
	if (strcmp(val, "S") && strcmp(val, "s"))
		return opt_usage(s, "--mode takes S or s, not", val);
	((struct cli *)cmd)->o.mode = val[0];
	return 0;
}

static int set_flavour(void *cmd, const struct opts *s, const struct opt *o, const char *val)
{
	static const char *const flavours[] = {"elf", "macosx", "mingw64", "nasm", "masm", NULL};
	(void)o;
	for (const char *const *k = flavours; *k; k++)
		if (!strcmp(val, *k)) {
			((struct cli *)cmd)->o.flavour = val;
			return 0;
		}
	return opt_usage(s, "--flavour takes elf, macosx, mingw64, nasm or masm, not", val);
}

static int set_features(void *cmd, const struct opts *s, const struct opt *o, const char *val)
{
	(void)o;
	if (!val[strspn(val, ", \t")])
		return opt_usage(s, "--features names no feature (leave it out to probe all)", val);
	((struct cli *)cmd)->o.features = val;
	return 0;
}

static int set_arch(void *cmd, const struct opts *s, const struct opt *o, const char *val)
{
	(void)o;
	if (!arch_named(val)) {
		char what[256];
		return opt_usage(s, arch_names(what, sizeof what, "--arch takes ", ", not"), val);
	}
	((struct cli *)cmd)->arch = arch_named(val)->name;     /* ppc64: ppc64le's catalog */
	return 0;
}

static int add_templates(void *cmd, const struct opts *s, const struct opt *o, const char *val)
{
	(void)cmd, (void)s, (void)o;
	catalog_add_dir(val);
	return 0;
}

/* probe and explain run the assembler alike; list reads the catalog only. */
#define OPT_STRUCT struct cli
#define WAY_ROWS \
	OPT_CALL("--cc", "CMD", set_way, "the compiler driver that assembles (default $CC, then cc)"), \
	OPT_CALL("--as", "CMD", set_way, "a raw assembler instead (x86_64-w64-mingw32-as)"), \
	OPT_CALL("--nasm", "CMD", set_way, "nasm on the Intel bodies (-f from the flavour)"), \
	OPT_CALL("--masm", "CMD", set_way, "ml64 or llvm-ml -m64 on the MASM bodies"), \
	OPT_TEXT("--cflags", "FLAGS", o.cflags, "the build's flags (default $CFLAGS)"), \
	OPT_TEXT("--asflags", "FLAGS", o.asflags, "assembler flags, after CFLAGS"), \
	OPT_CALL("--mode", "S|s", set_mode, "S: as the build assembles .S (with cpp, the default); s: .s"), \
	OPT_CALL("--flavour", "elf|macosx|mingw64|nasm|masm", set_flavour, "the object format and syntax")
#define TEMPLATE_ROWS \
	OPT_TEXT("--templates", "DIR", o.templates, "the catalog to read instead of the built-in one"), \
	OPT_CALL_REPEATED("--add-templates", "DIR", add_templates, "templates added to the catalog")
#define TIMEOUT_ROW OPT_TIMEOUT("--timeout", "give up on an assembler run after SEC seconds")
#define LOG_ROW OPT_TEXT("--log", "FILE", log, "every command, its status and output, into FILE")
static const struct opt options[] = {
	WAY_ROWS,
	OPT_CALL("--features", "LIST", set_features, "probe these only (comma-separated)"),
	TEMPLATE_ROWS,
	OPT_OUTPUT,
	OPT_CACHE,
	TIMEOUT_ROW,
	OPT_COUNT("--jobs", "N", o.jobs, 1, 1024, "assemble N batches at once (default: the CPUs)"),
	LOG_ROW,
	OPT_TEXT("--require", "LIST", require, "exit 1 unless each of these features is yes"),
	OPT_TEXT("--disable", "LIST", o.disable, "these features are disabled: not probed, never yes"),
	OPT_TEXT("--baseline", "OLD.json", baseline, "an earlier probe: exit 1 when a yes there is lost"),
	OPT_TABLE_END,
};
static const struct opt explain_options[] = {
	WAY_ROWS,
	TEMPLATE_ROWS,
	TIMEOUT_ROW,
	LOG_ROW,
	OPT_TABLE_END,
};
static const struct opt list_options[] = {
	TEMPLATE_ROWS,
	OPT_CALL("--arch", ARCH_NAMES_BAR, set_arch, "this architecture's catalog only"),
	OPT_TABLE_END,
};
#undef OPT_STRUCT

/* --log FILE: opened now, so a bad path is a usage error before anything
 * runs.  The same rule as -o: a FIFO with no reader is an error, never a
 * hang (O_NONBLOCK fails with ENXIO there instead of waiting). */
static int open_log(const struct cli *c, int argc, char **argv)
{
	int fd = open(c->log, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	run_log = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!run_log) {
		fprintf(stderr, "asmcap: cannot write the log %s: %s\n", c->log,
		        errno == ENXIO ? "a FIFO with no reader" : strerror(errno));
		if (fd >= 0)
			close(fd);
		return 2;
	}
	fprintf(run_log, "# asmcap %s log\n# argv:", report_version());
	for (int i = 0; i < argc; i++)
		fprintf(run_log, " %s", argv[i]);
	fprintf(run_log, "\n");
	return 0;
}

/* What the options left to the environment ($CC, $CFLAGS, the CPU
 * count), and the --log opened: 0, or 2 (reported). */
static int cli_ready(struct cli *c, const struct opts *s)
{
	if (!c->o.cmd)
		c->o.cmd = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	if (!c->o.cflags)
		c->o.cflags = getenv("CFLAGS") ? getenv("CFLAGS") : "";
	if (!c->o.jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		c->o.jobs = n > 0 ? (unsigned)n : 1;
	}
	return c->log ? open_log(c, s->argc, s->argv) : 0;
}

/* runs: assembler runs over catalog snippets (the rest of the processes
 * are identity and preprocessor queries). */
static void finish_log(double t0, int cached, int code, unsigned runs)
{
	if (run_log) {
		fprintf(run_log, "# exit %d; %s; processes started: %u; catalog runs: %u; %.1f ms\n", code,
		        cached ? "cache hit" : "probed", run_nprocs, runs, run_now_ms() - t0);
		fclose(run_log);
		run_log = NULL;
	}
	if (getenv("ASMCAP_STATS"))
		fprintf(stderr, "asmcap: stats: processes=%u cached=%d runs=%u ms=%.2f\n", run_nprocs, cached, runs,
		        run_now_ms() - t0);
}

/* The probe, through the cache when there is one.  0, 2 or 3 (err set). */
static int probe_or_cache(struct cli *c, struct probe *p, int *cached, char *err, size_t errlen)
{
	char *key = c->cache ? cache_key(&c->o) : NULL;
	*cached = 0;
	if (key && cache_get(c->cache, key, &c->o, p)) {
		*cached = 1;
		free(key);
		return 0;
	}
	int r = probe_run(p, &c->o, err, errlen);
	if (!r && key)
		cache_put(c->cache, key, p);
	free(key);
	return r;
}

/* One --require'd feature that is not usable: what it is, and the Fix of
 * the feature at fault (itself, or the one it requires that is not yes). */
static void require_failed(const struct probe *p, size_t i, const char *missing)
{
	struct buf msg = {0};
	size_t at = missing ? (size_t)(catalog_find(&p->cat, missing) - p->cat.f) : i;
	const struct verdict *v = &p->v[at];
	if (missing)
		buf_printf(&msg, "asmcap: required feature %s is yes, but it requires %s, which is %s\n",
		           p->cat.f[i].name, missing, engine_status_name(v->st));
	else {
		buf_printf(&msg, "asmcap: required feature %s is %s%s", p->cat.f[i].name, engine_status_name(v->st),
		           *v->reason ? ": " : "");
		buf_text(&msg, v->reason);
		buf_puts(&msg, "\n");
	}
	buf_puts(&msg, "asmcap:   ");
	report_fix(&msg, p, at);
	buf_puts(&msg, "\n");
	fputs(msg.s, stderr);
	buf_free(&msg);
}

/* --require: 0, 1 (message on stderr) or 2 (unknown name). */
static int check_require(const struct probe *p, const char *list)
{
	unsigned char *want = xcalloc(p->cat.n + 1, 1);
	char err[256];
	int r = 0;
	if (plan_feature_list(&p->cat, list, want, "--require", err, sizeof err)) {
		fprintf(stderr, "asmcap: %s\n", err);
		free(want);
		return 2;
	}
	for (size_t i = 0; i < p->cat.n; i++) {
		const char *missing = NULL;
		if (!want[i] || report_feature_usable(p, i, &missing))
			continue;
		require_failed(p, i, missing);
		r = 1;
	}
	free(want);
	return r;
}

/* --require names checked before anything runs: which catalog applies is
 * known only from the object, so a name must be in one of them. */
static int require_names_known(const struct cli *c, const struct opts *s)
{
	struct catalog cat[ARCH_MAX];
	char err[512];
	int n = 0, r = 0;
	for (const struct arch *const *a = arch_all; *a; a++)
		if (!catalog_load(&cat[n], c->o.templates, (*a)->name, err, sizeof err))
			n++;
	char *list = xstrdup(c->require);
	for (char *w = strtok(list, ", \t"); w && !r; w = strtok(NULL, ", \t")) {
		int found = 0;
		for (int a = 0; a < n; a++)
			found |= catalog_find(&cat[a], w) != NULL;
		if (!found)
			r = opt_usage(s, "--require: unknown feature (see `asmcap list')", w);
	}
	free(list);
	while (n--)
		catalog_free(&cat[n]);
	return r;
}

/* --baseline: what base had usable and this probe has not (a table on
 * stderr, as gains are; stdout is the probe's format): 0, 1 lost, 2 the
 * two cannot be compared. */
static int check_baseline(const struct caps *base, const char *path, const struct probe *p)
{
	struct caps now;
	struct buf b = {0};
	char err[1024];
	caps_from_probe(&now, p);
	long lost = caps_diff(&b, OUT_TEXT, base, path, &now, "this probe", 1, err, sizeof err);
	if (lost < 0)
		fprintf(stderr, "asmcap: --baseline: %s\n", err);
	else if (b.s)
		fputs(b.s, stderr);
	buf_free(&b);
	caps_free(&now);
	return lost < 0 ? 2 : lost > 0;
}

/* The probe's result in the format asked for. */
static void probe_report(const struct cli *c, const struct probe *p, struct buf *b)
{
	enum out_format f = c->fmt;
	if (f == OUT_JSON)
		report_json(b, p);
	else if (f == OUT_TEXT)
		report_text(b, p, !c->output && out_use_colour(1));
	else {
		char *cmd = argv_join(p->argv.v), *who = xprintf("asmcap --%s %s", p->way, cmd);
		report_vars(b, f, p, who);
		free(cmd);
		free(who);
	}
}

static int probe_main(void *cmd, const struct opts *s)
{
	struct cli *c = cmd;
	struct probe p;
	char err[1024] = "";
	struct caps base = {0};
	int cached, r;
	double t0 = run_now_ms();
	if ((r = cli_ready(c, s)) || (c->require && (r = require_names_known(c, s))))
		return r;
	if (c->baseline && caps_load(&base, c->baseline, err, sizeof err)) {
		fprintf(stderr, "asmcap: --baseline: %s\n", err);
		return 2;
	}
	r = probe_or_cache(c, &p, &cached, err, sizeof err);
	if (r == 2)
		opt_usage(s, err, NULL);
	else if (r)
		fprintf(stderr, "asmcap: %s\n", err);
	else {
		struct buf b = {0};
		probe_report(c, &p, &b);
		r = file_output("asmcap", c->output, &b);
		buf_free(&b);
		if (!r && c->require)
			r = check_require(&p, c->require);
		if ((!r || r == 1) && c->baseline) {
			int rb = check_baseline(&base, c->baseline, &p);
			r = rb > r ? rb : r;
		}
	}
	caps_free(&base);
	unsigned runs = p.nruns;
	probe_free(&p);
	finish_log(t0, cached, r, runs);
	return r;
}

static void hexline(const char *label, const uint8_t *b, size_t n)
{
	printf("%s", label);
	for (size_t i = 0; i < n; i++)
		printf(" %02x", b[i]);
	printf("%s\n", n ? "" : " (nothing)");
}

/* Whether some architecture's catalog has the feature: 0, or 2 with the
 * reason on stderr (unknown, or a catalog that failed to load). */
static int explain_known(const char *templates, const char *name)
{
	char err[1024], bad[1024] = "";
	for (const struct arch *const *a = arch_all; *a; a++) {
		struct catalog cat;
		if (!catalog_load(&cat, templates, (*a)->name, err, sizeof err)) {
			int known = catalog_find(&cat, name) != NULL;
			catalog_free(&cat);
			if (known)
				return 0;
		} else if (!*bad && strncmp(err, "templates directory ", 20))   /* a --templates tree may lack this arch */
			snprintf(bad, sizeof bad, "%s", err);
	}
	if (*bad)
		fprintf(stderr, "asmcap: %s\n", bad);
	else
		fprintf(stderr, "asmcap: explain: unknown feature `%s' (see `asmcap list')\n", name);
	return 2;
}

/* Everything the probe knows of one feature's run. */
static void explain_print(const struct probe *p, const struct feature *f)
{
	const struct verdict *v = &p->v[f - p->cat.f];
	printf("feature:   %s (%s)\n", f->name, f->file);
	if (f->summary)
		printf("summary:   %s\n", f->summary);
	printf("verdict:   %s%s%s\n", engine_status_name(v->st), *v->reason ? " — " : "", v->reason);
	if (f->since)
		printf("advice:    known in %s\n", f->since);
	if (v->cmd)
		printf("command:   %s   (%.1f ms)\n", v->cmd, v->ms);
	for (size_t k = 0; k < f->nenable; k++)
		printf("enable:    %s%s\n", f->enable[k], k != v->spelling ? "" :
		       v->st == ST_YES ? "   (gave the bytes)" : "   (its run is shown)");
	if (f->nenable)
		printf("flags:     %s%s%s (the snippet without enable:)\n", engine_status_name(p->vf[f - p->cat.f].st),
		       *p->vf[f - p->cat.f].reason ? ": " : "", p->vf[f - p->cat.f].reason);
	printf("snippet:\n%s", engine_way_body(p, f) ? engine_way_body(p, f) : f->body);
	if (v->source) {
		printf("source (the snippet between its labels; stderr's line numbers count here):\n");
		unsigned n = 1;
		for (const char *l = v->source; *l; n++) {
			size_t len = strcspn(l, "\n");
			printf("%4u  %.*s\n", n, (int)len, l);
			l += len + (l[len] == '\n');
		}
	}
	if (v->stderr_text)
		printf("stderr:%s%s", *v->stderr_text ? "\n" : " (empty)\n", v->stderr_text);
	if (f->section)
		printf("checks:    section %s\n", f->section);
	if (f->expect_nonempty)
		printf("expected:  a non-empty section\n");
	for (size_t k = 0; k < f->nexpect; k++)
		hexline(k ? "      or: " : "expected:", f->expect[k].b, f->expect[k].n);
	if (v->have_got)
		hexline("actual:  ", v->got, v->ngot);
	else if (v->cmd)
		printf("actual:   no object (the run failed)\n");
}

static int explain_main(void *cmd, const struct opts *s)
{
	struct cli *c = cmd;
	struct probe p;
	char err[1024] = "";
	double t0 = run_now_ms();
	const char *name = s->args[0];
	int r = cli_ready(c, s);
	if (r || (r = explain_known(c->o.templates, name)))
		return r;
	c->o.features = name;
	c->o.exact = 1;
	r = probe_run(&p, &c->o, err, sizeof err);
	if (r) {
		unsigned runs = p.nruns;
		probe_free(&p);
		fprintf(stderr, "asmcap: %s\n", err);
		finish_log(t0, 0, r, runs);
		return r;
	}
	explain_print(&p, catalog_find(&p.cat, name));
	unsigned runs = p.nruns;
	probe_free(&p);
	finish_log(t0, 0, 0, runs);
	return 0;
}

static int list_main(void *cmd, const struct opts *s)
{
	struct cli *c = cmd;
	int shown = 0, r = cli_ready(c, s);
	if (r)
		return r;
	for (const struct arch *const *a = arch_all; *a; a++) {
		const char *name = (*a)->name;
		char sub[4096];
		struct stat st;
		if (c->arch && strcmp(c->arch, name))
			continue;
		/* a --templates tree may hold some architectures only */
		snprintf(sub, sizeof sub, "%s/%s", c->o.templates ? c->o.templates : "", name);
		if (!c->arch && c->o.templates && stat(sub, &st))
			continue;
		struct catalog cat;
		char err[512];
		if (catalog_load(&cat, c->o.templates, name, err, sizeof err)) {
			fprintf(stderr, "asmcap: %s\n", err);
			return 2;
		}
		size_t w = 7;
		for (size_t i = 0; i < cat.n; i++)
			if (strlen(cat.f[i].name) > w)
				w = strlen(cat.f[i].name);
		if (cat.n)
			printf("%s%s (catalog %s):\n", shown++ ? "\n" : "", name, cat.hash);
		for (size_t i = 0; i < cat.n; i++) {
			const struct feature *f = &cat.f[i];
			printf("  %-*s  %s", (int)w, f->name, f->summary ? f->summary : "");
			if (f->added)
				printf(" [added: %s]", f->file);
			if (f->nrequires) {
				printf(" [requires");
				for (size_t k = 0; k < f->nrequires; k++)
					printf(" %s", f->requires[k]);
				printf("]");
			}
			printf("\n");
		}
		catalog_free(&cat);
	}
	return 0;
}

static const struct cli cli_defaults = {.o = {.way = "cc", .asflags = "", .mode = 'S'}, .fmt = OUT_TEXT};

/* probe, list and explain share struct cli; each has its own options */
const struct command cmd_probe = {"probe",
                                  {"asmcap", "asmcap [probe] " WAYS_SYNOPSIS, NULL, probe_text, options, 0, 0, NULL, NULL},
                                  sizeof(struct cli), &cli_defaults, probe_main};
const struct command cmd_list = {"list", {"asmcap list", "asmcap list", NULL, list_text, list_options, 0, 0, NULL, NULL},
                                 sizeof(struct cli), &cli_defaults, list_main};
const struct command cmd_explain = {"explain",
                                    {"asmcap explain", "asmcap explain FEATURE " WAYS_SYNOPSIS, NULL, explain_text,
                                     explain_options, 1, 1, "explain needs a FEATURE", NULL},
                                    sizeof(struct cli), &cli_defaults, explain_main};
