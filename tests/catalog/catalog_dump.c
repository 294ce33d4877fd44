/* SPDX-License-Identifier: MIT */
/* Test harness: load one architecture's catalog through probe/engine/catalog.c
 * (the parser asmcap uses) and print what it stored, one key per line, so
 * tests/catalog can compare it with its own reading of the files.
 *   catalog_dump DIR ARCH     exit 0, or 2 with the parser's message */
#include "catalog.h"

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
		if (f->hwcap.reg)
			printf("hwcap %u %u\n", f->hwcap.reg, f->hwcap.bit);
		if (f->hwprobe.key >= 0)
			printf("hwprobe %d %u\n", f->hwprobe.key, f->hwprobe.bit);
		if (f->isa)
			printf("isa %s\n", f->isa);
		if (f->attr_tag)
			printf("attribute %u %llu\n", f->attr_tag, (unsigned long long)f->attr_value);
		for (size_t k = 0; k < f->nexpect; k++) {
			printf("expect");
			for (size_t b = 0; b < f->expect[k].n; b++)
				printf(" %02x", f->expect[k].b[b]);
			printf("\n");
		}
		words("audit", f->audit_words, f->naudit_words);
		words("audit-thumb", f->audit_thumb_words, f->naudit_thumb_words);
		if (f->audit)
			printf("audit-text %s\n", f->audit);
	}
	catalog_free(&c);
	return 0;
}
