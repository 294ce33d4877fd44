/* SPDX-License-Identifier: MIT */
/* Mach-O reader (64-bit, and 32-bit with the same code): sections of
 * LC_SEGMENT(_64) named "__SEG,__sect", symbols of LC_SYMTAB.  Layout from
 * Apple's <mach-o/loader.h> and <mach-o/nlist.h> documentation. */
#include <stdlib.h>
#include <string.h>

#include "obj.h"

enum { LC_SEGMENT = 0x1, LC_SYMTAB = 0x2, LC_SEGMENT_64 = 0x19 };
enum { S_ZEROFILL = 0x1, S_GB_ZEROFILL = 0xc, S_THREAD_LOCAL_ZEROFILL = 0x12,
       S_ATTR_SOME_INSTRUCTIONS = 0x400, S_ATTR_PURE_INSTRUCTIONS = 0x80000000u };
enum { N_STAB = 0xe0, N_TYPE = 0x0e, N_SECT = 0x0e, N_EXT = 0x01 };

/* Sizes and offsets for 32-bit [0] and 64-bit [1] files. */
static const struct macho_layout {
	unsigned hdr, seg, sect, nlist;
	unsigned seg_nsects, sect_addr, sect_offset, sect_flags;
} layout[2] = {
	{ 28, 56, 68, 12,  48, 32, 40, 56 },
	{ 32, 72, 80, 16,  64, 32, 48, 64 },
};

static uint64_t word(const uint8_t *p, int is64)
{
	return is64 ? obj_le64(p) : obj_le32(p);
}

static int add_sections(struct obj *o, const uint8_t *buf, size_t len, const uint8_t *cmd,
                        uint32_t cmdsize, const struct macho_layout *L, int is64,
                        char *err, size_t errlen)
{
	uint32_t n;
	struct obj_section *grown;

	if (cmdsize < L->seg)
		return obj_fail(err, errlen, "Mach-O segment command of %u bytes", cmdsize);
	n = obj_le32(cmd + L->seg_nsects);
	if (n > (cmdsize - L->seg) / L->sect)
		return obj_fail(err, errlen, "Mach-O segment command of %u bytes cannot hold %u sections",
		                cmdsize, n);
	if (!n)
		return 0;
	grown = realloc(o->sections, (o->nsections + n) * sizeof *grown);
	if (!grown)
		return obj_fail(err, errlen, "out of memory");
	o->sections = grown;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *s = cmd + L->seg + (uint64_t)i * L->sect;
		struct obj_section *sec = &o->sections[o->nsections];
		uint32_t flags = obj_le32(s + L->sect_flags), off = obj_le32(s + L->sect_offset);
		uint32_t stype = flags & 0xff;
		size_t sn = strnlen((const char *)s + 16, 16);
		char name[34];

		memset(sec, 0, sizeof *sec);
		memcpy(name, s + 16, sn);        /* segname, then sectname: "__TEXT,__text" */
		name[sn] = ',';
		obj_set_name(name + sn + 1, sizeof name - sn - 1, (const char *)s, 16);
		obj_set_name(sec->name, sizeof sec->name, name, strlen(name));
		sec->addr = word(s + L->sect_addr, is64);
		sec->size = word(s + L->sect_addr + (is64 ? 8 : 4), is64);
		sec->is_code = !!(flags & (S_ATTR_SOME_INSTRUCTIONS | S_ATTR_PURE_INSTRUCTIONS));
		o->nsections++;
		if (stype == S_ZEROFILL || stype == S_GB_ZEROFILL || stype == S_THREAD_LOCAL_ZEROFILL ||
		    !sec->size)
			continue;
		if (!obj_in_bounds(len, off, sec->size))
			return obj_fail(err, errlen, "Mach-O section %s (offset %u size %llu) outside the file",
			                sec->name, off, (unsigned long long)sec->size);
		sec->data = buf + off;
	}
	return 0;
}

static int read_symtab(struct obj *o, const uint8_t *buf, size_t len, const uint8_t *cmd,
                       const struct macho_layout *L, int is64, char *err, size_t errlen)
{
	uint32_t symoff = obj_le32(cmd + 8), nsyms = obj_le32(cmd + 12);
	uint32_t stroff = obj_le32(cmd + 16), strsize = obj_le32(cmd + 20);

	if (!obj_in_bounds(len, symoff, (uint64_t)nsyms * L->nlist))
		return obj_fail(err, errlen, "Mach-O symbol table (%u entries at %u) outside the file",
		                nsyms, symoff);
	if (!obj_in_bounds(len, stroff, strsize))
		return obj_fail(err, errlen, "Mach-O string table (%u bytes at %u) outside the file",
		                strsize, stroff);
	if (o->symbols)
		return obj_fail(err, errlen, "Mach-O file has two symbol tables");
	if (!nsyms)
		return 0;
	o->symbols = calloc(nsyms, sizeof *o->symbols);
	if (!o->symbols)
		return obj_fail(err, errlen, "out of memory");
	for (uint32_t i = 0; i < nsyms; i++) {
		const uint8_t *p = buf + symoff + (uint64_t)i * L->nlist;
		unsigned type = p[4], sect = p[5];
		uint64_t value = word(p + 8, is64);
		struct obj_symbol *s = &o->symbols[o->nsymbols];
		const char *name = obj_str(buf + stroff, strsize, obj_le32(p));

		if (!name)
			return obj_fail(err, errlen, "Mach-O symbol %u name outside the string table", i);
		if ((type & N_STAB) || !*name)
			continue;
		s->name = name;
		s->section = -1;
		s->value = value;
		s->is_global = !!(type & N_EXT);
		o->nsymbols++;
		if ((type & N_TYPE) != N_SECT)
			continue;
		/* n_sect counts sections from 1 across all segments; n_value is an address. */
		if (!sect || sect > o->nsections)
			return obj_fail(err, errlen, "Mach-O symbol %s in section %u of %zu", name, sect,
			                o->nsections);
		if (value < o->sections[sect - 1].addr ||
		    value - o->sections[sect - 1].addr > o->sections[sect - 1].size)
			return obj_fail(err, errlen, "Mach-O symbol %s address 0x%llx outside its section %s",
			                name, (unsigned long long)value, o->sections[sect - 1].name);
		s->section = sect - 1;
		s->value = value - o->sections[sect - 1].addr;
	}
	return 0;
}

int obj_parse_macho(struct obj *o, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	int is64 = len >= 4 && obj_le32(buf) == 0xfeedfacf;
	const struct macho_layout *L = &layout[is64];
	uint32_t cpu, ncmds, sizeofcmds;
	uint64_t off;
	const uint8_t *symtab = NULL;

	if (len < L->hdr)
		return obj_fail(err, errlen, "Mach-O header truncated (%zu of %u bytes)", len, L->hdr);
	cpu = obj_le32(buf + 4);
	ncmds = obj_le32(buf + 16);
	sizeofcmds = obj_le32(buf + 20);
	o->format = OBJ_MACHO;
	o->bits = is64 ? 64 : 32;
	o->machine = cpu;
	if (!obj_in_bounds(len, L->hdr, sizeofcmds))
		return obj_fail(err, errlen, "Mach-O load commands (%u bytes) run past the end", sizeofcmds);
	off = L->hdr;
	for (uint32_t i = 0; i < ncmds; i++) {
		uint32_t cmd, cmdsize;
		if (!obj_in_bounds(L->hdr + (uint64_t)sizeofcmds, off, 8))
			return obj_fail(err, errlen, "Mach-O load command %u past the commands area", i);
		cmd = obj_le32(buf + off);
		cmdsize = obj_le32(buf + off + 4);
		if (cmdsize < 8 || !obj_in_bounds(L->hdr + (uint64_t)sizeofcmds, off, cmdsize))
			return obj_fail(err, errlen, "Mach-O load command %u has bad size %u", i, cmdsize);
		if (cmd == (is64 ? LC_SEGMENT_64 : LC_SEGMENT)) {
			if (add_sections(o, buf, len, buf + off, cmdsize, L, is64, err, errlen))
				return -1;
		} else if (cmd == LC_SYMTAB) {
			if (cmdsize < 24)
				return obj_fail(err, errlen, "Mach-O LC_SYMTAB of %u bytes", cmdsize);
			symtab = buf + off;
		}
		off += cmdsize;
	}
	/* Symbols after all sections: n_sect may name a later segment's section. */
	return symtab ? read_symtab(o, buf, len, symtab, L, is64, err, errlen) : 0;
}
