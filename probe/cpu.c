/* asmcap cpu: what this CPU and OS can run, asked of the host
 * architecture's CPU reader (arch.h) feature by feature. */
#include "cpu.h"
#include "arch.h"
#include "cmds.h"
#include "file.h"
#include "out.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cpu_runs(const struct feature *f, struct buf *why)
{
	const struct arch *a = arch_host();
	if (!a || !a->cpu_runs) {
		buf_printf(why, "asmcap cannot read this CPU's features (%s)", a ? a->name : "unknown architecture");
		return -1;
	}
	return a->cpu_runs(f, why);
}

int cpu_checks(const struct feature *f)
{
	return f->ncpuid > 0 || f->hwcap.reg || f->hwprobe.key >= 0;
}

int cmd_cpu(int argc, char **argv)
{
	const char *format = "text", *output = NULL, *templates = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help")) {
			printf("usage: asmcap cpu [--format %s] [-o FILE] [--templates DIR]\n", out_format_names());
			return 0;
		}
		if ((!strcmp(a, "--format") || !strcmp(a, "-o") || !strcmp(a, "--templates")) && i + 1 < argc) {
			const char **dst = a[1] == 'o' ? &output : a[2] == 'f' ? &format : &templates;
			*dst = argv[++i];
		} else {
			fprintf(stderr, "asmcap: cpu: unknown argument `%s'\nusage: asmcap cpu [--format %s] [-o FILE] [--templates DIR]\n",
			        a, out_format_names());
			return 2;
		}
	}
	enum out_format fmt;
	if (out_format_parse(format, &fmt)) {
		fprintf(stderr, "asmcap: cpu: unknown --format `%s' (%s)\n", format, out_format_names());
		return 2;
	}
	const struct arch *a = arch_host();
	if (!a || !a->cpu_runs) {
		fprintf(stderr, "asmcap: cpu: this build of asmcap cannot read the features of its CPU (%s)\n",
		        a ? a->name : "an architecture asmcap has no module for");
		return 3;
	}
	struct catalog c;
	char err[512];
	if (catalog_load(&c, templates, a->name, err, sizeof err)) {
		fprintf(stderr, "asmcap: %s\n", err);
		return 2;
	}
	struct arch_cpu_state st[4];
	size_t nst = a->cpu_state ? a->cpu_state(st) : 0;
	struct out_var *v = xcalloc(c.n + nst + 1, sizeof *v);
	char **own = xcalloc(2 * c.n + 2, sizeof *own);
	size_t k = 0, nown = 0;
	for (size_t i = 0; i < nst; i++)
		v[k++] = (struct out_var){st[i].name, st[i].value, st[i].comment};
	for (size_t i = 0; i < c.n; i++) {
		const struct feature *f = &c.f[i];
		if (!cpu_checks(f))
			continue;       /* directives: nothing for the CPU to do */
		struct buf why = {0};
		int ok = a->cpu_runs(f, &why);
		char *name = out_var_name("ASMCAP_CPU_", f->name);
		own[nown++] = name;
		own[nown++] = why.s;
		/* unknown: the OS does not say (riscv64 without hwprobe) */
		v[k++] = (struct out_var){name, ok == 1 ? "yes" : ok == 0 ? "no" : "unknown", why.s};
	}
	struct buf out = {0};
	if (fmt == OUT_TEXT)
		for (size_t i = 0; i < k; i++) {
			char low[64];
			size_t n = 0;
			for (const char *s = v[i].name + 11; *s && n + 1 < sizeof low; s++)
				low[n++] = *s == '_' ? '-' : (char)tolower((unsigned char)*s);
			low[n] = 0;
			buf_printf(&out, "%-12s %-7s %s\n", low, v[i].value, v[i].comment ? v[i].comment : "");
		}
	else
		out_vars(&out, fmt, "asmcap cpu", v, k);
	int r = 0;
	if (file_replace(output, out.s ? out.s : "", out.n, err, sizeof err)) {
		fprintf(stderr, "asmcap: %s\n", err);
		r = 2;     /* a bad -o, not a bad toolchain */
	}
	for (size_t i = 0; i < nown; i++)
		free(own[i]);
	free(own);
	free(v);
	buf_free(&out);
	catalog_free(&c);
	return r;
}
