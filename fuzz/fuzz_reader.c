/* SPDX-License-Identifier: MIT */
/* libFuzzer target for one object reader, chosen at build time with
 * -DFUZZ_READER=elf|coff|macho|ar|x86 (one source, one binary per reader;
 * elf is the sections' (under rules that take every path a machine's
 * ELF rules open), the dynamic section's and the Arm build attributes'
 * readers, x86 the instruction decoder).
 * Everything a reader returns is touched, so ASan sees any pointer or
 * size that escapes the input. */
#include <stdint.h>
#include <string.h>

#include "armattr.h"
#include "obj.h"
#include "x86dec.h"

#define elf 1
#define coff 2
#define macho 3
#define ar 4
#define x86 5

static volatile uint64_t sink;

#if FUZZ_READER != x86
/* Every failure carries a reason. */
static void reasoned(const char *err, size_t n)
{
	if (!memchr(err, 0, n) || strncmp(err, "unreadable object: ", 19))
		__builtin_trap();
}

static void touch(const struct obj *o)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < o->nsections; i++) {
		const struct obj_section *s = &o->sections[i];
		sum += strlen(s->name);
		if (s->data && s->size)
			sum += s->data[0] + s->data[s->size - 1];
	}
	for (size_t i = 0; i < o->nsymbols; i++) {
		const struct obj_symbol *s = &o->symbols[i];
		sum += strlen(s->name);
		if (s->section >= 0 && (size_t)s->section >= o->nsections)
			__builtin_trap();   /* readers promise a valid index or -1 */
	}
	if (o->nsymbols)
		sum += !!obj_symbol_named(o, o->symbols[0].name);
	sum += !!obj_section_named(o, ".text") + !!obj_section_listed(o, ".data, __eh_frame,x") +
	       strlen(obj_format_name(o));
	/* the build attributes (`attribute:' evidence): a failure has its reason */
	char err[160];
	uint64_t v = 0;
	if (arm_attribute(o, 6, &v, err, sizeof err) < 0 &&
	    (!memchr(err, 0, sizeof err) || strncmp(err, ".ARM.attributes: ", 17)))
		__builtin_trap();
	sink = sum + v;
}

static void parse(int (*reader)(struct obj *, const uint8_t *, size_t, char *, size_t),
                  const uint8_t *data, size_t size)
{
	struct obj o;
	char err[160];

	memset(&o, 0, sizeof o);
	if (reader(&o, data, size, err, sizeof err) == 0)
		touch(&o);
	else
		reasoned(err, sizeof err);
	obj_free(&o);
}
#endif

#if FUZZ_READER == elf
/* Rules of a machine that has every rule a module may give (obj_rules):
 * mapping symbols, a mode bit in function addresses and code stored out
 * of fetch order in big-endian objects, so the reader's paths that follow
 * them are fuzzed although no module is linked in. */
static char any_mapping(const char *name)
{
	return name[0] == '$' && name[1] && (!name[2] || name[2] == '.') ? name[1] : 0;
}

static int low_bit(uint64_t *value)
{
	int b = *value & 1;
	*value &= ~(uint64_t)1;
	return b;
}

static unsigned swapped(const struct obj *o, uint32_t e_flags, char m)
{
	(void)e_flags;
	return o->big_endian && m != 'd' ? (m == 't' ? 2 : 4) : 0;
}

static const struct obj_rules every_rule = { any_mapping, low_bit, swapped };

static const struct obj_rules *rules(const struct obj *o)
{
	(void)o;
	return &every_rule;
}

/* The dynamic section's reader (the cache's DT_NEEDED and RUNPATH). */
static void dynamic(const uint8_t *data, size_t size)
{
	struct obj_dynamic d;
	char err[160];
	uint64_t sum = 0;

	if (obj_elf_dynamic(data, size, &d, err, sizeof err) == 0) {
		for (size_t i = 0; i < d.nneeded; i++)
			sum += strlen(d.needed[i]);
		sum += d.runpath ? strlen(d.runpath) : 0;
	} else
		reasoned(err, sizeof err);
	sink = sum;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#if FUZZ_READER == elf
	obj_use_rules(rules);
	parse(obj_parse_elf, data, size);
	dynamic(data, size);
#elif FUZZ_READER == coff
	parse(obj_parse_coff, data, size);
#elif FUZZ_READER == macho
	parse(obj_parse_macho, data, size);
#elif FUZZ_READER == ar
	size_t pos = 0, len;
	const uint8_t *m;
	char name[64], err[160];

	while (ar_next(data, size, &pos, name, sizeof name, &m, &len, err, sizeof err) == 1) {
		sink += strlen(name);
		parse(obj_parse, m, len);
	}
#elif FUZZ_READER == x86
	/* First byte picks the mode.  A length must fit the input and 15
	 * bytes, and must not change when the input is cut right after it. */
	int bits = size && data[0] & 1 ? 32 : 64;
	if (size > 512)
		size = 512;   /* short inputs: more of them per second */
	for (size_t off = 1; off < size;) {
		struct x86_insn in, again;
		unsigned n = x86_decode(data + off, size - off, bits, &in);
		if (n > size - off || n > 15 || (n && x86_decode(data + off, n, bits, &again) != n))
			__builtin_trap();
		sink += in.opcode + in.modrm;
		off += n ? n : 1;
	}
#else
#error "build with -DFUZZ_READER=elf|coff|macho|ar|x86"
#endif
	return 0;
}
