/* SPDX-License-Identifier: MIT */
/* Test helper for the object readers and the x86 decoder.
 *   objdump FILE...                  sections and symbols, recursing into archives
 *                                    (exit 1 with the reader's error)
 *   objdump --mutate FILE            parse every truncation and many corruptions
 *                                    in-process (built with ASan): counts, exit 3
 *                                    if a failure lacks its reason
 *   objdump --lengths FILE SECTION BITS   "offset length" of each instruction
 *   objdump --dynamic FILE           "needed NAME" per DT_NEEDED, "runpath PATH"
 *                                    (exit 1 with the reader's error)
 *   objdump --decode BITS HEX        what the decoder makes of the bytes HEX, one
 *                                    instruction a line (decode_hex)
 *   objdump --arm-attr FILE TAG      "attribute TAG VALUE" or "no attribute TAG"
 *                                    (exit 1 with the reader's error) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armattr.h"
#ifdef OBJDUMP_RULES
#include "arch.h"
#endif
#include "obj.h"
#include "x86dec.h"

static int dump(const char *what, const uint8_t *buf, size_t len)
{
	char err[256];
	struct obj o;

	if (ar_is_archive(buf, len)) {
		size_t pos = 0, mlen;
		const uint8_t *m;
		char name[256];
		int r;
		while ((r = ar_next(buf, len, &pos, name, sizeof name, &m, &mlen, err, sizeof err)) == 1) {
			printf("member %s %zu\n", name, mlen);
			if (dump(name, m, mlen))
				return 1;
		}
		if (r < 0)
			fprintf(stderr, "%s: %s\n", what, err);
		return r < 0;
	}
	if (obj_parse(&o, buf, len, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", what, err);
		return 1;
	}
	printf("format %s bits %d machine %u\n", obj_format_name(&o), o.bits, (unsigned)o.machine);
	for (size_t i = 0; i < o.nsections; i++) {
		const struct obj_section *s = &o.sections[i];
		printf("section %zu %s size %llu addr 0x%llx code %d data %d\n", i, s->name,
		       (unsigned long long)s->size, (unsigned long long)s->addr, s->is_code, s->data != NULL);
	}
	for (size_t i = 0; i < o.nsymbols; i++) {
		const struct obj_symbol *s = &o.symbols[i];
		printf("symbol %s section %d value %llu size %llu func %d data %d global %d mapping %d thumb %d\n",
		       s->name, s->section, (unsigned long long)s->value, (unsigned long long)s->size, s->is_func,
		       s->is_data, s->is_global, s->mapping, s->thumb);
	}
	obj_free(&o);
	return 0;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		if (*len == cap) {
			uint8_t *g = realloc(buf, cap = cap ? 2 * cap : 65536);
			if (!g)
				exit(2);
			buf = g;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return buf;
}

static volatile size_t sink;

/* The dynamic section's reader on one ELF variant: 1 if a failure lacks its reason. */
static int dynamic_variant(const uint8_t *b, size_t len, unsigned *ok, unsigned *failed)
{
	struct obj_dynamic d;
	char err[256];

	if (obj_elf_dynamic(b, len, &d, err, sizeof err)) {
		++*failed;
		if (strncmp(err, "unreadable object: ", 19)) {
			fprintf(stderr, "failure without a reason: \"%s\"\n", err);
			return 1;
		}
		return 0;
	}
	++*ok;
	for (size_t i = 0; i < d.nneeded; i++)
		sink += strlen(d.needed[i]);
	sink += d.runpath ? strlen(d.runpath) : 0;
	return 0;
}

/* Parse one variant (archives: every member) in a buffer of exactly its
 * size, so ASan catches a read one byte past the end. */
static int variant(const uint8_t *src, size_t len, unsigned *ok, unsigned *failed)
{
	uint8_t *b = malloc(len ? len : 1);
	char err[256];
	struct obj o;
	int r = 0;

	memcpy(b, src, len);
	if (ar_is_archive(b, len)) {
		size_t pos = 0, mlen;
		const uint8_t *m;
		char name[64];
		int k;
		while ((k = ar_next(b, len, &pos, name, sizeof name, &m, &mlen, err, sizeof err)) == 1)
			r |= variant(m, mlen, ok, failed);
		if (k < 0 && strncmp(err, "unreadable archive: ", 20))
			r = 1;
	} else if (len >= 4 && !memcmp(b, "\177ELF", 4) && dynamic_variant(b, len, ok, failed)) {
		r = 1;
	} else if (obj_parse(&o, b, len, err, sizeof err)) {
		++*failed;
		r = strncmp(err, "unreadable object: ", 19) != 0;
		if (r)
			fprintf(stderr, "failure without a reason: \"%s\"\n", err);
	} else {
		++*ok;
		/* Touch both ends of every section and name: ASan checks them. */
		for (size_t i = 0; i < o.nsections; i++)
			if (o.sections[i].data && o.sections[i].size)
				sink += o.sections[i].data[0] + o.sections[i].data[o.sections[i].size - 1];
		for (size_t i = 0; i < o.nsymbols; i++) {
			sink += strlen(o.symbols[i].name);
			r |= o.symbols[i].section >= (int)o.nsections;
		}
		uint64_t v = 0;
		if (arm_attribute(&o, 6, &v, err, sizeof err) < 0 && strncmp(err, ".ARM.attributes: ", 17)) {
			fprintf(stderr, "attribute failure without a reason: \"%s\"\n", err);
			r = 1;
		}
		sink += v;
		obj_free(&o);
	}
	free(b);
	return r;
}

static int mutate(const char *path)
{
	size_t len;
	uint8_t *buf = slurp(path, &len);
	static const uint8_t vals[] = { 0x00, 0xff, 0x7f, 0x80, 0x01 };
	unsigned ok = 0, failed = 0;
	int bad = 0;

	for (size_t cut = 0; cut < len; cut++)
		bad |= variant(buf, cut, &ok, &failed);
	for (size_t at = 0; at < len; at++)
		for (size_t v = 0; v < sizeof vals; v++) {
			uint8_t keep = buf[at];
			buf[at] = vals[v];
			bad |= variant(buf, len, &ok, &failed);
			buf[at] = keep;
		}
	printf("parsed %u failed %u\n", ok, failed);
	free(buf);
	return bad ? 3 : 0;
}

/* The attribute reader on one file. */
static int arm_attr(const char *path, unsigned tag)
{
	size_t len;
	uint8_t *buf = slurp(path, &len);
	char err[256];
	struct obj o;
	uint64_t v;
	int r;

	if (obj_parse(&o, buf, len, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", path, err);
		free(buf);
		return 1;
	}
	r = arm_attribute(&o, tag, &v, err, sizeof err);
	if (r < 0)
		fprintf(stderr, "%s: %s\n", path, err);
	else if (r)
		printf("attribute %u %llu\n", tag, (unsigned long long)v);
	else
		printf("no attribute %u\n", tag);
	obj_free(&o);
	free(buf);
	return r < 0;
}

static int lengths(const char *path, const char *section, int bits)
{
	size_t len;
	uint8_t *buf = slurp(path, &len);
	char err[256];
	struct obj o;
	const struct obj_section *s;

	if (obj_parse(&o, buf, len, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", path, err);
		return 1;
	}
	s = obj_section_named(&o, section);
	for (uint64_t off = 0; s && s->data && off < s->size;) {
		struct x86_insn in;
		unsigned n = x86_decode(s->data + off, s->size - off, bits, &in);
		printf("%llx %u\n", (unsigned long long)(s->addr + off), n);
		off += n ? n : 1;
	}
	obj_free(&o);
	free(buf);
	return s ? 0 : 1;
}

static int dynamic(const char *path)
{
	size_t len;
	uint8_t *buf = slurp(path, &len);
	char err[256];
	struct obj_dynamic d;
	int r = obj_elf_dynamic(buf, len, &d, err, sizeof err);

	if (r)
		fprintf(stderr, "%s: %s\n", path, err);
	for (size_t i = 0; !r && i < d.nneeded; i++)
		printf("needed %s\n", d.needed[i]);
	if (!r && d.runpath)
		printf("runpath %s\n", d.runpath);
	free(buf);
	return r ? 1 : 0;
}

/* "len enc map opcode pp w l rex2" per instruction of the hex bytes (enc:
 * 0 legacy, 1 VEX, 2 EVEX, 3 XOP; rex2: the payload, or -1 without REX2);
 * "0" and exit 1 where the decoder refuses the rest. */
static int decode_hex(int bits, const char *hex)
{
	uint8_t b[64];
	size_t n = 0;
	for (; hex[0] && hex[1] && n < sizeof b; hex += 2)
		if (sscanf(hex, "%2hhx", &b[n++]) != 1)
			return 2;
	for (size_t off = 0; off < n;) {
		struct x86_insn in;
		unsigned len = x86_decode(b + off, n - off, bits, &in);
		if (!len) {
			printf("0\n");
			return 1;
		}
		printf("%u %d %u %02x %02x %d %d %d\n", len, (int)in.enc, in.map, in.opcode, in.pp, in.w,
		       in.l, in.has_rex2 ? in.rex2 : -1);
		off += len;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;

#ifdef OBJDUMP_RULES
	/* built with the modules: their ELF rules, as asmcap's main installs them */
	obj_use_rules(arch_obj_rules);
#endif
	if (argc == 3 && !strcmp(argv[1], "--mutate"))
		return mutate(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--dynamic"))
		return dynamic(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "--lengths"))
		return lengths(argv[2], argv[3], atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "--arm-attr"))
		return arm_attr(argv[2], (unsigned)atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "--decode"))
		return decode_hex(atoi(argv[2]), argv[3]);
	for (int i = 1; i < argc; i++) {
		size_t len;
		uint8_t *buf = slurp(argv[i], &len);
		bad |= dump(argv[i], buf, len);
		free(buf);
	}
	return bad;
}
