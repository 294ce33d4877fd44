/* asmcap cpu: what this CPU and OS can run, from the catalog's cpuid bits
 * and XCR0 (XGETBV, only when the OS has set CR4.OSXSAVE). */
#include "cpu.h"
#include "cmds.h"
#include "file.h"
#include "out.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
static void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static unsigned long long xgetbv0(void)
{
	unsigned lo, hi;
	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
	return (unsigned long long)hi << 32 | lo;
}

/* The highest leaf of the range `leaf` belongs to (0 or 0x80000000). */
static int leaf_exists(unsigned leaf)
{
	unsigned r[4];
	cpuid(leaf & 0x80000000u, 0, r);
	return leaf <= r[0];
}

/* XCR0, or 0 when the OS has not set OSXSAVE (then XGETBV would fault). */
static unsigned long long os_xcr0(int *osxsave)
{
	unsigned r1[4];
	cpuid(1, 0, r1);
	*osxsave = r1[2] >> 27 & 1;
	return *osxsave ? xgetbv0() : 0;
}
#endif

int cpu_runs(const struct feature *f, struct buf *why)
{
#if defined(__x86_64__) || defined(__i386__)
	int ok = 1, osxsave;
	for (size_t b = 0; b < f->ncpuid; b++) {
		const struct cat_cpuid *q = &f->cpuid[b];
		unsigned r[4] = {0};
		if (leaf_exists(q->leaf))
			cpuid(q->leaf, q->subleaf, r);
		if (!(r[q->reg] >> q->bit & 1)) {
			ok = 0;
			buf_printf(why, "%sCPUID.(%#x,%u):%s bit %u clear", why->n ? "; " : "", q->leaf,
			           q->subleaf, (const char *[]){"eax", "ebx", "ecx", "edx"}[q->reg], q->bit);
		}
	}
	unsigned long long xcr0 = f->xcr0 ? os_xcr0(&osxsave) : 0;
	if (f->xcr0 && (xcr0 & f->xcr0) != f->xcr0) {
		ok = 0;
		buf_printf(why, "%sthe OS has not enabled XCR0 state %#llx (XCR0 %#llx)", why->n ? "; " : "",
		           (unsigned long long)f->xcr0, xcr0);
	}
	return ok;
#else
	(void)f;
	buf_puts(why, "this CPU has no CPUID (not x86)");
	return -1;
#endif
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
#if defined(__x86_64__) || defined(__i386__)
	struct catalog c;
	char err[512];
	const char *arch = sizeof(void *) == 8 ? "x86_64" : "i386";
	if (catalog_load(&c, templates, arch, err, sizeof err)) {
		fprintf(stderr, "asmcap: %s\n", err);
		return 2;
	}
	int osxsave;
	unsigned long long xcr0 = os_xcr0(&osxsave);
	struct out_var *v = calloc(c.n + 2, sizeof *v);
	char **own = calloc(2 * c.n + 2, sizeof *own), xcr[32];
	size_t k = 0, nown = 0;
	snprintf(xcr, sizeof xcr, "%#llx", xcr0);
	v[k++] = (struct out_var){"ASMCAP_CPU_XCR0", xcr, osxsave ? "XGETBV(0)" : "OSXSAVE off: no XGETBV"};
	for (size_t i = 0; i < c.n; i++) {
		const struct feature *f = &c.f[i];
		if (!f->ncpuid)
			continue;       /* directives: nothing for the CPU to do */
		struct buf why = {0};
		int ok = cpu_runs(f, &why) == 1;
		char *name = out_var_name("ASMCAP_CPU_", f->name);
		own[nown++] = name;
		own[nown++] = why.s;
		v[k++] = (struct out_var){name, ok ? "yes" : "no", why.s};
	}
	struct buf out = {0};
	if (fmt == OUT_TEXT)
		for (size_t i = 0; i < k; i++) {
			char low[64];
			size_t n = 0;
			for (const char *s = v[i].name + 11; *s && n + 1 < sizeof low; s++)
				low[n++] = *s == '_' ? '-' : (char)tolower((unsigned char)*s);
			low[n] = 0;
			buf_printf(&out, "%-12s %-4s %s\n", low, v[i].value, v[i].comment ? v[i].comment : "");
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
#else
	(void)output;
	(void)templates;
	fprintf(stderr, "asmcap: cpu: this build of asmcap runs on a CPU without CPUID (not x86)\n");
	return 3;
#endif
}
