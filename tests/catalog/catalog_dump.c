/* SPDX-License-Identifier: MIT */
/* Test harness: load one architecture's catalog through probe/engine/catalog.c
 * and template.c (the parser asmcap uses) and print what it stored, one key per line, so
 * tests/catalog can compare it with its own reading of the files (the
 * keys of a dialect or a module through their owners' headers).
 *   catalog_dump DIR ARCH     exit 0, or 2 with the parser's message */
#include "arm.h"
#include "catalog.h"
#include "words.h"
#include "x86keys.h"

#include <stdio.h>

/* The built-in copy is not under test here: an empty table. */
const struct catalog_file catalog_files[] = {{0, 0}};
const size_t catalog_nfiles = 0;

static void words(const char *key, const struct cat_word *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%s %0*llx %0*llx\n", key, w[i].len * 2, (unsigned long long)w[i].mask,
		       w[i].len * 2, (unsigned long long)w[i].value);
}

int main(int argc, char **argv)
{
	struct catalog c;
	char err[1024];
	if (argc != 3) {
		fputs("usage: catalog_dump DIR ARCH\n", stderr);
		return 2;
	}
	if (catalog_load_dir(&c, argv[1], argv[2], err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	for (size_t i = 0; i < c.n; i++) {
		const struct feature *f = &c.f[i];
		printf("feature %s\n", f->name);
		for (size_t k = 0; k < f->nenable; k++)
			printf("enable %s\n", f->enable[k]);
		for (size_t k = 0; k < f->nrequires; k++)
			printf("requires %s\n", f->requires[k]);
		const struct words_feature *w = words_of(f);
		if (w->hwcap.reg)
			printf("hwcap %u %u\n", w->hwcap.reg, w->hwcap.bit);
		if (w->hwprobe.key >= 0)
			printf("hwprobe %d %u\n", w->hwprobe.key, w->hwprobe.bit);
		if (arm_of(f)->isa)
			printf("isa %s\n", arm_of(f)->isa);
		if (f->attr_tag)
			printf("attribute %u %llu\n", f->attr_tag, (unsigned long long)f->attr_value);
		for (size_t k = 0; k < f->nexpect; k++) {
			printf("expect");
			for (size_t b = 0; b < f->expect[k].n; b++)
				printf(" %02x", f->expect[k].b[b]);
			printf("\n");
		}
		words("audit", w->audit, w->naudit);
		words("audit-thumb", arm_of(f)->thumb, arm_of(f)->nthumb);
		if (x86_of(f)->audit)
			printf("audit-text %s\n", x86_of(f)->audit);
	}
	catalog_free(&c);
	return 0;
}
