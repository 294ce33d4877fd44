/* SPDX-License-Identifier: MIT */
/* The table of architecture modules and the questions asked of all of
 * them at once (which one made this object, which one runs asmcap). */
#include "arch.h"
#include "words.h"

#include <stdio.h>
#include <string.h>

const struct arch *const arch_all[] = {
	ARCH_MODULES(ARCH_ADDR, ARCH_COMMA), NULL,
};
_Static_assert(sizeof arch_all / sizeof *arch_all <= ARCH_MAX + 1, "ARCH_MAX too small");

const char *arch_names(char *buf, size_t len, const char *before, const char *after)
{
	struct buf b = {0};
	buf_puts(&b, before);
	for (size_t i = 0; arch_all[i]; i++)
		buf_printf(&b, "%s%s", !i ? "" : arch_all[i + 1] ? ", " : " or ", arch_all[i]->name);
	buf_puts(&b, after);
	snprintf(buf, len, "%s", b.s);
	buf_free(&b);
	return buf;
}

const struct arch *arch_named(const char *name)
{
	for (const struct arch *const *a = arch_all; *a; a++)
		if (!strcmp((*a)->name, name) || ((*a)->be_name && !strcmp((*a)->be_name, name)))
			return *a;
	return NULL;
}

void arch_catalog_keys(const char *arch, const struct cat_keys *t[CAT_KEYS_N])
{
	const struct arch *a = arch_named(arch);
	t[CAT_KEYS_DIALECT] = !a || a->dialect == CAT_WORDS ? &words_keys : NULL;
	t[CAT_KEYS_MODULE] = a ? a->keys : NULL;
}

const void *arch_keyed(const struct feature *f, const struct cat_keys *t)
{
	const struct cat_keys *have[CAT_KEYS_N];
	arch_catalog_keys(f->arch, have);
	for (int k = 0; k < CAT_KEYS_N; k++)
		if (have[k] == t)
			return f->keyed[k];
	return NULL;
}

const struct arch *arch_of_obj(const struct obj *o)
{
	for (const struct arch *const *a = arch_all; *a; a++) {
		const struct arch *m = *a;
		if (!(m->orders & (o->big_endian ? ARCH_ORDER_BE : ARCH_ORDER_LE)))
			continue;
		unsigned want = o->format == OBJ_ELF ? m->elf_machine : o->format == OBJ_COFF ? m->coff_machine
		                : m->macho_cputype;
		/* ELF names RISC-V once for both widths: the class tells them apart */
		if (want && want == o->machine && (o->format != OBJ_ELF || o->bits == m->bits || m->elf_any_class))
			return m;
	}
	return NULL;
}

const struct obj_rules *arch_obj_rules(const struct obj *o)
{
	for (const struct arch *const *a = arch_all; *a && o->format == OBJ_ELF; a++)
		if ((*a)->obj_rules && (*a)->elf_machine == o->machine)
			return (*a)->obj_rules;
	return NULL;
}

const struct arch *arch_host(void)
{
	/* -DASMCAP_TEST_NO_HOST builds asmcap as a machine without a module
	 * would (tests/probe/test_arch_interface.py) */
#ifndef ASMCAP_TEST_NO_HOST
	for (const struct arch *const *a = arch_all; *a; a++)
		if ((*a)->is_host)
			return *a;
#endif
	return NULL;
}

/* Does the host run code of module a (x86_64 hosts run i386 code too)? */
static int host_runs(const struct arch *a)
{
	const struct arch *h = arch_host();
	return a && h && (a == h || a == h->runs_too);
}

int arch_cpu_runs(const struct feature *f, struct buf *why)
{
	const struct arch *a = arch_host();
	if (!a || !a->cpu_runs) {
		buf_printf(why, "asmcap cannot read this CPU's features (%s)", a ? a->name : "unknown architecture");
		return -1;
	}
	/* another architecture's reader would read its own bits (or, on x86,
	 * none: a feature without cpuid lines) and claim the feature */
	if (!host_runs(arch_named(f->arch))) {
		buf_printf(why, "%s is a %s feature; this CPU is %s", f->name, f->arch, a->name);
		return -1;
	}
	return a->cpu_runs(f, why);
}

int arch_cpu_checks(const struct feature *f)
{
	const struct cat_keys *t[CAT_KEYS_N];
	arch_catalog_keys(f->arch, t);
	for (int k = 0; k < CAT_KEYS_N; k++)
		if (t[k] && t[k]->cpu_checks && f->keyed[k] && t[k]->cpu_checks(f->keyed[k]))
			return 1;
	return 0;
}

int arch_runs_natively(const struct obj *o)
{
#if defined(__APPLE__)
	const enum obj_format host_format = OBJ_MACHO;
#elif defined(_WIN32)
	const enum obj_format host_format = OBJ_COFF;
#else
	const enum obj_format host_format = OBJ_ELF;
#endif
	const int host_big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	return o->format == host_format && o->big_endian == host_big_endian && host_runs(arch_of_obj(o));
}

const char *arch_macro_named(const char *name)
{
	for (const struct arch *const *a = arch_all; *a; a++)
		for (const char *const *m = (*a)->macros; m && *m; m++)
			if (!strcmp(*m, name))
				return *m;
	return NULL;
}

const char *arch_build_macro_named(const char *name)
{
	const char *m = arch_macro_named(name);
	for (const struct arch *const *a = arch_all; *a && !m; a++)
		for (const struct arch_fact *f = (*a)->facts; f && f->name && !m; f++)
			if (!strcmp(f->macro, name))
				m = f->macro;
	return m;
}

const struct arch_fact *arch_facts(const struct arch *a)
{
	static const struct arch_fact generic[] = { ARCH_FACT_PIC, {0} };
	return a && a->facts ? a->facts : generic;
}

/* ELF machines without a module, by their usual names (gABI and the
 * psABIs); the byte order and class pick among a family's names. */
static const struct other {
	unsigned machine;
	int bits, big_endian;   /* -1 any */
	const char *name;
} others[] = {
	{20, -1, -1, "ppc"},
	{22, 32, -1, "s390"},
	{8, 64, 0, "mips64el"}, {8, 64, 1, "mips64"}, {8, 32, 0, "mipsel"}, {8, 32, 1, "mips"},
	{243, 32, -1, "riscv32"}, {2, -1, -1, "sparc"},
	{43, -1, -1, "sparc64"}, {50, -1, -1, "ia64"}, {4, -1, -1, "m68k"},
};

const char *arch_machine_name(const struct obj *o, char *buf, size_t len)
{
	const struct arch *a = arch_of_obj(o);
	if (a)
		return o->big_endian && a->be_name ? a->be_name : a->name;
	for (size_t i = 0; o->format == OBJ_ELF && i < sizeof others / sizeof *others; i++) {
		const struct other *x = &others[i];
		if (x->machine == o->machine && (x->bits < 0 || x->bits == o->bits) &&
		    (x->big_endian < 0 || x->big_endian == o->big_endian))
			return x->name;
	}
	snprintf(buf, len, "machine %#x", (unsigned)o->machine);
	return buf;
}
