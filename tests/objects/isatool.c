/* SPDX-License-Identifier: MIT */
/* Test helper for the fixed-width architecture modules (probe/arch/),
 * on objects of any machine asmcap has a module for.
 *   isatool walk FILE SECTION    "offset len word" per instruction (len:
 *                                its bytes; an 8-byte prefixed Power
 *                                instruction's word is its prefix),
 *                                "offset - step" per undecodable stretch, as
 *                                audit walks the section (mapping symbols
 *                                mark data and Thumb/A32)
 *   isatool frame FILE SYMBOL    the frame the module's prologue reader finds */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "words.h"
#include "file.h"
#include "obj.h"

static void print(void *ctx, uint64_t off, const struct arch_insn *in, unsigned step)
{
	(void)ctx;
	if (in)
		printf("%llx %u %0*llx\n", (unsigned long long)off, step, (int)in->len * 2,
		       (unsigned long long)in->word);
	else
		printf("%llx - %u\n", (unsigned long long)off, step);
}

static int walk(const struct arch *a, const struct obj *o, const char *name)
{
	for (size_t i = 0; i < o->nsections; i++) {
		const struct obj_section *sec = &o->sections[i];
		struct code_span *s;
		long n;
		if (strcmp(sec->name, name) || !sec->data)
			continue;
		if ((n = words_code_spans(o, NULL, 0, (int)i, 0, &s)) < 0)
			return 1;
		words_code_walk(a, s, (size_t)n, sec->data, 0, sec->size, print, NULL);
		free(s);
		return 0;
	}
	fprintf(stderr, "isatool: no section %s\n", name);
	return 1;
}

static int frame(const struct arch *a, const struct obj *o, const char *name)
{
	const struct obj_symbol *sym = obj_symbol_named(o, name);
	if (!sym || sym->section < 0 || !o->sections[sym->section].data || !sym->size ||
	    sym->size > o->sections[sym->section].size - sym->value) {
		fprintf(stderr, "isatool: no function %s with a size\n", name);
		return 1;
	}
	printf("%ld\n", a->prologue_frame(a, o->sections[sym->section].data + sym->value, sym->size,
	                                  sym->thumb ? ARCH_MODE_THUMB : 0));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4 || (strcmp(argv[1], "walk") && strcmp(argv[1], "frame"))) {
		fprintf(stderr, "usage: isatool walk FILE SECTION | isatool frame FILE SYMBOL\n");
		return 2;
	}
	obj_use_rules(arch_obj_rules);  /* the modules' ELF rules, as asmcap's main installs them */
	size_t len;
	uint8_t *buf = file_read(argv[2], &len);
	char err[256];
	struct obj o;
	if (!buf || obj_parse(&o, buf, len, err, sizeof err)) {
		fprintf(stderr, "isatool: %s: %s\n", argv[2], buf ? err : "cannot read");
		free(buf);
		return 1;
	}
	const struct arch *a = arch_of_obj(&o);
	int rc = 1;
	if (!a || !a->decode || !a->prologue_frame)
		fprintf(stderr, "isatool: %s: no module decodes this machine\n", argv[2]);
	else
		rc = (argv[1][0] == 'w' ? walk : frame)(a, &o, argv[3]);
	obj_free(&o);
	free(buf);
	return rc;
}
