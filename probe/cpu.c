/* asmcap cpu: what this CPU and OS can run.  x86: the catalog's cpuid bits
 * and XCR0 (XGETBV, only when the OS has set CR4.OSXSAVE); aarch64, arm and
 * riscv64: the kernel's AT_HWCAP/AT_HWCAP2 and riscv_hwprobe (hwcap.c). */
#include "cpu.h"
#include "cmds.h"
#include "hwcap.h"
#include "out.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define HOST_X86 1
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

static int x86_runs(const struct feature *f, struct buf *why)
{
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
}
#else
#define HOST_X86 0
#endif

/* The catalog folder of the CPU this binary runs on, or NULL. */
static const char *host_arch(void)
{
#if HOST_X86
	return sizeof(void *) == 8 ? "x86_64" : "i386";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__arm__)
	return "arm";
#elif defined(__riscv) && __riscv_xlen == 64
	return "riscv64";
#else
	return NULL;
#endif
}

/* Does the catalog tell the CPU side where to look for f? */
static int cpu_keyed(const struct feature *f)
{
	return f->ncpuid || f->hwcap.reg || f->hwprobe.key >= 0;
}

int cpu_runs(const struct feature *f, struct buf *why)
{
	const char *arch = host_arch();
	if (!arch || strcmp(arch, f->arch)) {
		buf_printf(why, "%sasmcap runs on %s, not %s", why->n ? "; " : "", arch ? arch : "an unknown CPU",
		           f->arch);
		return -1;
	}
#if HOST_X86
	return x86_runs(f, why);
#else
	struct hw_state s;
	hw_read(&s, f, 1);
	return hw_runs(f, &s, why);
#endif
}

/* The state words every answer comes from, as the first lines. */
static size_t state_vars(struct out_var *v, char bufs[3][40], const struct catalog *c,
                         struct hw_state *s)
{
	size_t k = 0;
#if HOST_X86
	int osxsave;
	unsigned long long xcr0 = os_xcr0(&osxsave);
	(void)c;
	(void)s;
	snprintf(bufs[0], sizeof bufs[0], "%#llx", xcr0);
	v[k++] = (struct out_var){"ASMCAP_CPU_XCR0", bufs[0], osxsave ? "XGETBV(0)" : "OSXSAVE off: no XGETBV"};
#else
	hw_read(s, c->f, c->n);
	if (!s->auxv)
		return 0;
	snprintf(bufs[0], sizeof bufs[0], "%#llx", (unsigned long long)s->hwcap);
	snprintf(bufs[1], sizeof bufs[1], "%#llx", (unsigned long long)s->hwcap2);
	v[k++] = (struct out_var){"ASMCAP_CPU_HWCAP", bufs[0], "getauxval(AT_HWCAP)"};
	v[k++] = (struct out_var){"ASMCAP_CPU_HWCAP2", bufs[1], "getauxval(AT_HWCAP2)"};
	if (s->hwprobe) {
		snprintf(bufs[2], sizeof bufs[2], "%s", s->hwprobe == 1 ? "yes" : "no");
		v[k++] = (struct out_var){"ASMCAP_CPU_HWPROBE", bufs[2],
		                          s->hwprobe == 1 ? "riscv_hwprobe answered" : "riscv_hwprobe failed"};
	}
#endif
	return k;
}

static void text_lines(struct buf *out, const struct out_var *v, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		char low[64];
		size_t n = 0;
		for (const char *s = v[i].name + 11; *s && n + 1 < sizeof low; s++)
			low[n++] = *s == '_' ? '-' : (char)tolower((unsigned char)*s);
		low[n] = 0;
		buf_printf(out, "%-12s %-7s %s\n", low, v[i].value, v[i].comment ? v[i].comment : "");
	}
}

static int report_cpu(const struct catalog *c, enum out_format fmt, const char *output)
{
	struct hw_state s;
	struct out_var *v = calloc(c->n + 3, sizeof *v);
	char **own = calloc(2 * c->n + 1, sizeof *own), bufs[3][40], err[512];
	size_t nown = 0;
	int r = 0;
	if (!v || !own) {
		fprintf(stderr, "asmcap: cpu: out of memory\n");
		free(v);
		free(own);
		return 2;
	}
	size_t k = state_vars(v, bufs, c, &s);
	for (size_t i = 0; i < c->n; i++) {
		const struct feature *f = &c->f[i];
		if (!cpu_keyed(f))
			continue;       /* directives: nothing for the CPU to do */
		struct buf why = {0};
#if HOST_X86
		int ok = x86_runs(f, &why);
#else
		int ok = hw_runs(f, &s, &why);
#endif
		char *name = out_var_name("ASMCAP_CPU_", f->name);
		own[nown++] = name;
		own[nown++] = why.s;
		v[k++] = (struct out_var){name, ok == 1 ? "yes" : ok == 0 ? "no" : "unknown", why.s};
	}
	struct buf out = {0};
	if (fmt == OUT_TEXT)
		text_lines(&out, v, k);
	else
		out_vars(&out, fmt, "asmcap cpu", v, k);
	if (out_file(output, out.s ? out.s : "", out.n, err, sizeof err)) {
		fprintf(stderr, "asmcap: %s\n", err);
		r = 3;
	}
	for (size_t i = 0; i < nown; i++)
		free(own[i]);
	free(own);
	free(v);
	buf_free(&out);
	return r;
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
	const char *arch = host_arch();
	if (!arch) {
		fprintf(stderr, "asmcap: cpu: asmcap has no catalog for the CPU this build runs on\n");
		return 3;
	}
	struct catalog c;
	char err[512];
	if (catalog_load(&c, templates, arch, err, sizeof err)) {
		fprintf(stderr, "asmcap: %s\n", err);
		return 2;
	}
	int r = report_cpu(&c, fmt, output);
	catalog_free(&c);
	return r;
}
