/* Test helper for the fixed-width decoders (probe/isa_words.c,
 * probe/prologue_words.c), on objects whatever their machine.
 *   isatool walk FILE SECTION a64|a32|t32|rv    "offset len word" per
 *           instruction, "offset - step" per undecodable stretch; the
 *           section's mapping symbols say where data and Thumb/ARM are
 *   isatool frame FILE SYMBOL a64|a32|t32|rv    the frame prologue_frame_words reads
 *   isatool sp a64|a32|t32|rv HEXWORD LEN       sp_down of one instruction */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "obj.h"
#include "prologue_words.h"

static int isa_named(const char *s, enum isa *isa)
{
	static const char *const names[] = { "data", "a64", "a32", "t32", "rv" };
	for (int i = 1; i < 5; i++)
		if (!strcmp(s, names[i])) {
			*isa = (enum isa)i;
			return 0;
		}
	fprintf(stderr, "isatool: unknown set %s\n", s);
	return -1;
}

static void print(void *ctx, uint64_t off, const struct isa_insn *in, unsigned step)
{
	(void)ctx;
	if (in->ok)
		printf("%llx %u %0*x\n", (unsigned long long)off, in->len, in->len * 2, in->word);
	else
		printf("%llx - %u\n", (unsigned long long)off, step);
}

static int run(const char *cmd, const struct obj *o, const char *name, enum isa isa)
{
	struct isa_span *s;
	long n;
	if (!strcmp(cmd, "walk")) {
		for (size_t i = 0; i < o->nsections; i++) {
			const struct obj_section *sec = &o->sections[i];
			if (strcmp(sec->name, name) || !sec->data)
				continue;
			if ((n = isa_spans(o, (int)i, isa, &s)) < 0)
				return 1;
			isa_walk(s, (size_t)n, sec->data, 0, sec->size, print, NULL);
			free(s);
			return 0;
		}
		fprintf(stderr, "isatool: no section %s\n", name);
		return 1;
	}
	const struct obj_symbol *sym = obj_symbol_named(o, name);
	if (!sym || sym->section < 0 || !o->sections[sym->section].data) {
		fprintf(stderr, "isatool: no function %s\n", name);
		return 1;
	}
	const struct obj_section *sec = &o->sections[sym->section];
	uint64_t start = sym->value & ~(uint64_t)(isa == ISA_T32), end = start + sym->size;
	if (!sym->size || end > sec->size) {
		fprintf(stderr, "isatool: %s has no usable size\n", name);
		return 1;
	}
	if ((n = isa_spans(o, sym->section, isa, &s)) < 0)
		return 1;
	printf("%ld\n", prologue_frame_words(s, (size_t)n, sec->data, start, end));
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	enum isa isa;
	if (argc == 5 && !strcmp(argv[1], "sp")) {
		if (isa_named(argv[2], &isa))
			return 2;
		printf("%ld\n", sp_down(isa, (uint32_t)strtoul(argv[3], NULL, 16), (unsigned)atoi(argv[4])));
		return 0;
	}
	if (argc != 5 || (strcmp(argv[1], "walk") && strcmp(argv[1], "frame")) || isa_named(argv[4], &isa)) {
		fprintf(stderr, "usage: isatool walk|frame FILE NAME SET | isatool sp SET HEXWORD LEN\n");
		return 2;
	}
	size_t len;
	uint8_t *buf = file_read(argv[2], &len);
	char err[256];
	struct obj o;
	if (!buf || obj_parse(&o, buf, len, err, sizeof err)) {
		fprintf(stderr, "isatool: %s: %s\n", argv[2], buf ? err : "cannot read");
		free(buf);
		return 1;
	}
	int rc = run(argv[1], &o, argv[3], isa);
	obj_free(&o);
	free(buf);
	return rc;
}
