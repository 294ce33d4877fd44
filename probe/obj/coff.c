/* SPDX-License-Identifier: MIT */
/* COFF object reader (x86_64 and i386, as mingw as, clang and nasm -f win64
 * write them).  Layout from the Microsoft PE/COFF specification. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obj.h"

enum { FILEHDR = 20, SCNHDR = 40, SYMENT = 18 };
enum { SCN_CNT_CODE = 0x20, SCN_CNT_UNINIT = 0x80, SCN_MEM_EXECUTE = 0x20000000 };
enum { CLASS_EXTERNAL = 2, CLASS_STATIC = 3, CLASS_LABEL = 6, CLASS_WEAK_EXTERNAL = 105 };
enum { DTYPE_FUNCTION = 2 };

struct coff {
	const uint8_t *buf;
	size_t len;
	const uint8_t *strtab;     /* includes its 4-byte size field */
	uint64_t strsize;
};

/* "/123": offset 123 in the string table.  Other names are up to 8 bytes,
 * NUL-padded (not terminated when exactly 8). */
static int section_name(const struct coff *c, const uint8_t *raw, char *dst, size_t dstlen,
                        char *err, size_t errlen)
{
	if (raw[0] == '/' && raw[1] >= '0' && raw[1] <= '9') {
		uint64_t off = 0;
		const char *s;
		for (int i = 1; i < 8 && raw[i]; i++) {
			if (raw[i] < '0' || raw[i] > '9')
				return obj_fail(err, errlen, "COFF section name \"%.8s\" is not /<decimal>", raw);
			off = off * 10 + (raw[i] - '0');
		}
		s = obj_str(c->strtab, c->strsize, off);
		if (!s || off < 4)
			return obj_fail(err, errlen, "COFF section name offset %llu outside the string table",
			                (unsigned long long)off);
		obj_set_name(dst, dstlen, s, strlen(s));
		return 0;
	}
	if (raw[0] == '/' && raw[1] == '/')
		return obj_fail(err, errlen, "COFF base64 section names (bigobj) are not supported");
	obj_set_name(dst, dstlen, (const char *)raw, 8);
	return 0;
}

/* Symbol names of up to 8 bytes sit in the record, unterminated when full:
 * they are copied into `shortname` (9 bytes) so every name is a C string. */
static const char *symbol_name(const struct coff *c, const uint8_t *p, char *shortname)
{
	if (!obj_le32(p))
		return obj_le32(p + 4) < 4 ? NULL : obj_str(c->strtab, c->strsize, obj_le32(p + 4));
	memcpy(shortname, p, 8);
	shortname[8] = 0;
	return shortname;
}

static int read_sections(struct obj *o, const struct coff *c, unsigned nsec, unsigned opthdr,
                         char *err, size_t errlen)
{
	uint64_t off = FILEHDR + (uint64_t)opthdr;

	if (!obj_in_bounds(c->len, off, (uint64_t)nsec * SCNHDR))
		return obj_fail(err, errlen, "COFF section table (%u entries) runs past the end", nsec);
	if (!nsec)
		return 0;
	o->sections = calloc(nsec, sizeof *o->sections);
	if (!o->sections)
		return obj_fail(err, errlen, "out of memory");
	o->nsections = nsec;
	for (unsigned i = 0; i < nsec; i++) {
		const uint8_t *h = c->buf + off + (uint64_t)i * SCNHDR;
		struct obj_section *s = &o->sections[i];
		uint32_t flags = obj_le32(h + 36), size = obj_le32(h + 16), ptr = obj_le32(h + 20);

		if (section_name(c, h, s->name, sizeof s->name, err, errlen))
			return -1;
		s->size = size;
		s->addr = obj_le32(h + 12);
		s->is_code = !!(flags & (SCN_CNT_CODE | SCN_MEM_EXECUTE));
		if (!(flags & SCN_CNT_UNINIT) && ptr && size) {
			if (!obj_in_bounds(c->len, ptr, size))
				return obj_fail(err, errlen, "COFF section %s (offset %u size %u) outside the file",
				                s->name, ptr, size);
			s->data = c->buf + ptr;
		}
	}
	return 0;
}

static int keep_class(unsigned cls)
{
	return cls == CLASS_EXTERNAL || cls == CLASS_STATIC || cls == CLASS_LABEL ||
	       cls == CLASS_WEAK_EXTERNAL;
}

static int read_symbols(struct obj *o, struct coff *c, uint32_t symoff, uint32_t nsym,
                        char *err, size_t errlen)
{
	/* Names share one buffer of 9-byte slots, freed with the symbols. */
	size_t names_at;
	char *shortnames;

	if (!nsym)
		return 0;
	names_at = (size_t)nsym * sizeof *o->symbols;
	o->symbols = calloc(1, names_at + (size_t)nsym * 9);
	if (!o->symbols)
		return obj_fail(err, errlen, "out of memory");
	shortnames = (char *)o->symbols + names_at;
	for (uint32_t i = 0; i < nsym; i++) {
		const uint8_t *p = c->buf + symoff + (uint64_t)i * SYMENT;
		int secno = (int16_t)obj_le16(p + 12);
		unsigned type = obj_le16(p + 14), cls = p[16], naux = p[17];
		struct obj_symbol *s = &o->symbols[o->nsymbols];
		const char *name = symbol_name(c, p, shortnames + (size_t)o->nsymbols * 9);
		uint32_t value = obj_le32(p + 8);

		if (!name)
			return obj_fail(err, errlen, "COFF symbol %u name outside the string table", i);
		if (naux > nsym - 1 - i)
			return obj_fail(err, errlen, "COFF symbol %u has %u auxiliary records past the table",
			                i, naux);
		i += naux;
		if (!keep_class(cls) || !*name)
			continue;
		if (secno > 0 && (size_t)secno > o->nsections)
			return obj_fail(err, errlen, "COFF symbol %s in section %d of %zu", name, secno,
			                o->nsections);
		/* Section definitions (static, value 0, with an aux record) name
		 * sections, not code. */
		if (cls == CLASS_STATIC && naux && !value && secno > 0 &&
		    !strcmp(name, o->sections[secno - 1].name))
			continue;
		s->name = name;
		s->section = secno > 0 ? secno - 1 : -1;
		s->value = value;
		s->is_func = (type >> 4 & 3) == DTYPE_FUNCTION;
		s->typed = s->is_func;
		s->is_global = cls == CLASS_EXTERNAL || cls == CLASS_WEAK_EXTERNAL;
		o->nsymbols++;
	}
	return 0;
}

int obj_parse_coff(struct obj *o, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	struct coff c = { .buf = buf, .len = len };
	unsigned machine, nsec, opthdr;
	uint32_t symoff, nsym;

	if (len < FILEHDR)
		return obj_fail(err, errlen, "COFF header truncated (%zu of %d bytes)", len, FILEHDR);
	machine = obj_le16(buf);
	nsec = obj_le16(buf + 2);
	symoff = obj_le32(buf + 8);
	nsym = obj_le32(buf + 12);
	opthdr = obj_le16(buf + 16);
	if (!obj_coff_machine_name(machine))
		return obj_fail(err, errlen, "COFF machine %#x is not one asmcap reads", machine);
	o->format = OBJ_COFF;
	o->machine = machine;
	o->bits = machine == 0x8664 || machine == 0xaa64 ? 64 : 32;
	if (symoff || nsym) {
		uint64_t end = symoff + (uint64_t)nsym * SYMENT;
		if (!obj_in_bounds(len, symoff, (uint64_t)nsym * SYMENT))
			return obj_fail(err, errlen, "COFF symbol table (%u entries at %u) runs past the end",
			                nsym, symoff);
		/* The string table follows; its first 4 bytes give its size. */
		if (obj_in_bounds(len, end, 4)) {
			c.strsize = obj_le32(buf + end);
			if (c.strsize < 4 || !obj_in_bounds(len, end, c.strsize))
				return obj_fail(err, errlen, "COFF string table size %llu does not fit the file",
				                (unsigned long long)c.strsize);
			c.strtab = buf + end;
		}
	}
	if (read_sections(o, &c, nsec, opthdr, err, errlen))
		return -1;
	return read_symbols(o, &c, symoff, nsym, err, errlen);
}
