/* SPDX-License-Identifier: MIT */
/* asmcap cpu: what this CPU and OS can run, asked of the host
 * architecture's CPU reader (arch.h) feature by feature. */
#include "arch.h"
#include "cmds.h"
#include "file.h"
#include "opt.h"
#include "out.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cpu_cmd { enum out_format fmt; const char *output, *templates; };

#define OPT_STRUCT struct cpu_cmd
static const struct opt cpu_options[] = {
	OPT_OUTPUT,
	OPT_TEXT("--templates", "DIR", templates, "the catalog to read instead of the built-in one"),
	OPT_TABLE_END,
};
#undef OPT_STRUCT

enum { CPU_STATE_MAX = 4 };     /* the most cpu_state lines a module gives */

/* One line per variable: "adx  yes  comment". */
static void cpu_text(struct buf *out, const struct out_var *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char low[64];
		size_t k = 0;
		for (const char *s = v[i].name + 11; *s && k + 1 < sizeof low; s++)
			low[k++] = *s == '_' ? '-' : (char)tolower((unsigned char)*s);
		low[k] = 0;
		buf_printf(out, "%-12s %-7s %s\n", low, v[i].value, v[i].comment ? v[i].comment : "");
	}
}

/* The variables: the CPU state lines (their text in st[]), then one per
 * feature the CPU must support; own[] collects the strings to free. */
static size_t cpu_vars(const struct arch *a, const struct catalog *c, struct arch_cpu_state *st,
                       struct out_var *v, char **own, size_t *nown)
{
	size_t nst = a->cpu_state ? a->cpu_state(st) : 0, k = 0;
	for (size_t i = 0; i < nst; i++)
		v[k++] = (struct out_var){st[i].name, st[i].value, st[i].comment, 0};
	for (size_t i = 0; i < c->n; i++) {
		const struct feature *f = &c->f[i];
		if (!arch_cpu_checks(f))
			continue;       /* directives: nothing for the CPU to do */
		struct buf why = {0};
		int ok = a->cpu_runs(f, &why);
		char *name = out_var_name("ASMCAP_CPU_", f->name);
		own[(*nown)++] = name;
		own[(*nown)++] = why.s;
		/* unknown: the OS does not say (riscv64 without hwprobe) */
		v[k++] = (struct out_var){name, ok == 1 ? "yes" : ok == 0 ? "no" : "unknown", why.s, 0};
	}
	return k;
}

static int cpu_run(void *cmd, const struct opts *s)
{
	const struct cpu_cmd *cc = cmd;
	(void)s;
	const struct arch *a = arch_host();
	if (!a || !a->cpu_runs) {
		fprintf(stderr, "asmcap cpu: this build of asmcap cannot read the features of its CPU (%s)\n",
		        a ? a->name : "an architecture asmcap has no module for");
		return 3;
	}
	struct catalog c;
	char err[512];
	if (catalog_load(&c, cc->templates, a->name, err, sizeof err)) {
		fprintf(stderr, "asmcap cpu: %s\n", err);
		return 2;
	}
	struct out_var *v = xcalloc(c.n + CPU_STATE_MAX, sizeof *v);
	char **own = xcalloc(2 * c.n + 2, sizeof *own);
	struct arch_cpu_state st[CPU_STATE_MAX];
	size_t nown = 0, k = cpu_vars(a, &c, st, v, own, &nown);
	struct buf out = {0};
	if (cc->fmt == OUT_TEXT)
		cpu_text(&out, v, k);
	else
		out_vars(&out, cc->fmt, "asmcap cpu", v, k);
	int r = file_output("asmcap cpu", cc->output, &out);
	for (size_t i = 0; i < nown; i++)
		free(own[i]);
	free(own);
	free(v);
	buf_free(&out);
	catalog_free(&c);
	return r;
}

const struct command cmd_cpu = {
	"cpu", {"asmcap cpu", "asmcap cpu", NULL, NULL, cpu_options, 0, 0, NULL, NULL}, sizeof(struct cpu_cmd), NULL, cpu_run,
};
