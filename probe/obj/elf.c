/* SPDX-License-Identifier: MIT */
/* ELF reader (32 and 64 bit, either byte order): sections and the symbol
 * table (.symtab, else .dynsym for stripped shared libraries), and the
 * relocations of relocatable objects, and the dynamic section of a
 * program (the libraries it needs, through the program headers).  Field
 * offsets from the System V gABI; what a machine's ABI adds (mapping
 * symbols, an instruction-set bit in addresses, code stored in another
 * order than its module reads) the machine's rules say (struct obj_rules). */
#include <stdlib.h>
#include <string.h>

#include "obj.h"

/* Offsets of the fields we read, for ELFCLASS32 [0] and ELFCLASS64 [1]. */
static const struct elf_layout {
	unsigned ehsize, e_shoff, e_flags, e_shentsize, e_shnum, e_shstrndx;
	unsigned shsize, sh_flags, sh_addr, sh_offset, sh_size, sh_link, sh_entsize;
	unsigned symsize, st_value, st_size, st_info, st_shndx;
} layout[2] = {
	{ 52, 32, 36, 46, 48, 50,  40, 8, 12, 16, 20, 24, 36,  16, 4, 8, 12, 14 },
	{ 64, 40, 48, 58, 60, 62,  64, 8, 16, 24, 32, 40, 56,  24, 8, 16, 4, 6 },
};

enum { SHT_SYMTAB = 2, SHT_RELA = 4, SHT_NOBITS = 8, SHT_REL = 9, SHT_DYNSYM = 11, SHF_EXECINSTR = 4 };
enum { STT_OBJECT = 1, STT_FUNC = 2, STT_SECTION = 3, STT_FILE = 4, STT_COMMON = 5,
       STT_TLS = 6, STT_GNU_IFUNC = 10 };
enum { ET_REL = 1, SHN_LORESERVE = 0xff00, SHN_XINDEX = 0xffff };

struct elf {
	const uint8_t *buf;
	size_t len;
	const struct elf_layout *L;
	int is64, be;
	uint64_t shoff, shnum;
};

/* Big-endian objects (s390x, MIPS, PowerPC) are read far enough to name
 * their machine and list their symbols. */
static uint32_t u16(const struct elf *e, const uint8_t *p)
{
	return e->be ? (uint32_t)(p[0] << 8 | p[1]) : obj_le16(p);
}

static uint32_t u32(const struct elf *e, const uint8_t *p)
{
	return e->be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] : obj_le32(p);
}

static uint64_t word(const struct elf *e, const uint8_t *p)
{
	return !e->is64 ? u32(e, p) : e->be ? (uint64_t)u32(e, p) << 32 | u32(e, p + 4) : obj_le64(p);
}

static const uint8_t *shdr(const struct elf *e, uint64_t i)
{
	return e->buf + e->shoff + i * e->L->shsize;
}

static int read_sections(struct obj *o, struct elf *e, char *err, size_t errlen)
{
	const struct elf_layout *L = e->L;
	const uint8_t *h = e->buf;
	uint64_t shentsize = u16(e, h + L->e_shentsize), strndx = u16(e, h + L->e_shstrndx);
	const uint8_t *strtab = NULL;
	uint64_t strlen_ = 0;

	e->shoff = word(e, h + L->e_shoff);
	if (!e->shoff)
		return 0;
	e->shnum = u16(e, h + L->e_shnum);
	if (shentsize != L->shsize)
		return obj_fail(err, errlen, "ELF section header size %u, expected %u",
		                (unsigned)shentsize, L->shsize);
	if (!obj_in_bounds(e->len, e->shoff, L->shsize))
		return obj_fail(err, errlen, "ELF section headers at %llu outside the file",
		                (unsigned long long)e->shoff);
	/* Large counts live in section 0 (gABI "extended section numbering"). */
	if (!e->shnum)
		e->shnum = word(e, shdr(e, 0) + L->sh_size);
	if (strndx == SHN_XINDEX)
		strndx = u32(e, shdr(e, 0) + L->sh_link);
	if (e->shnum > (e->len - e->shoff) / L->shsize)
		return obj_fail(err, errlen, "ELF section header table (%llu entries) runs past the end",
		                (unsigned long long)e->shnum);
	o->sections = calloc(e->shnum, sizeof *o->sections);
	if (!o->sections)
		return obj_fail(err, errlen, "out of memory");
	o->nsections = e->shnum;
	if (strndx && strndx < e->shnum) {
		const uint8_t *s = shdr(e, strndx);
		uint64_t off = word(e, s + L->sh_offset), size = word(e, s + L->sh_size);
		if (!obj_in_bounds(e->len, off, size))
			return obj_fail(err, errlen, "ELF section name table outside the file");
		strtab = e->buf + off;
		strlen_ = size;
	} else if (strndx) {
		return obj_fail(err, errlen, "ELF section name table index %llu out of range",
		                (unsigned long long)strndx);
	}
	for (uint64_t i = 0; i < e->shnum; i++) {
		const uint8_t *s = shdr(e, i);
		struct obj_section *sec = &o->sections[i];
		uint32_t type = u32(e, s + 4);
		uint64_t off = word(e, s + L->sh_offset), size = word(e, s + L->sh_size);
		const char *name = "";

		if (strtab && i) {
			name = obj_str(strtab, strlen_, u32(e, s));
			if (!name)
				return obj_fail(err, errlen, "ELF section %llu name outside the name table",
				                (unsigned long long)i);
		}
		obj_set_name(sec->name, sizeof sec->name, name, strlen(name));
		sec->size = i ? size : 0;
		sec->addr = word(e, s + L->sh_addr);
		sec->is_code = !!(word(e, s + L->sh_flags) & SHF_EXECINSTR);
		if (i && type != SHT_NOBITS && type != 0) {
			if (!obj_in_bounds(e->len, off, size))
				return obj_fail(err, errlen, "ELF section %s (offset %llu size %llu) outside the file",
				                sec->name, (unsigned long long)off, (unsigned long long)size);
			sec->data = e->buf + off;
		}
	}
	return 0;
}

static uint64_t find_symtab(const struct elf *e)
{
	for (uint32_t want = SHT_SYMTAB;; want = SHT_DYNSYM) {
		for (uint64_t i = 1; i < e->shnum; i++)
			if (u32(e, shdr(e, i) + 4) == want)
				return i;
		if (want == SHT_DYNSYM)
			return 0;
	}
}

static int read_symbols(struct obj *o, const struct elf *e, int relocatable, char *err, size_t errlen)
{
	const struct elf_layout *L = e->L;
	const struct obj_rules *rules = obj_rules_of(o);
	uint64_t si = find_symtab(e), link, n;
	const uint8_t *s, *strtab, *syms;
	uint64_t strsize;

	if (!si)
		return 0;
	s = shdr(e, si);
	link = u32(e, s + L->sh_link);
	if (!link || link >= e->shnum || !o->sections[link].data)
		return obj_fail(err, errlen, "ELF symbol table names string table %llu, which is not there",
		                (unsigned long long)link);
	strtab = o->sections[link].data;
	strsize = o->sections[link].size;
	if (!o->sections[si].data)
		return obj_fail(err, errlen, "ELF symbol table has no contents");
	if (word(e, s + L->sh_entsize) != L->symsize)
		return obj_fail(err, errlen, "ELF symbol entry size %llu, expected %u",
		                (unsigned long long)word(e, s + L->sh_entsize), L->symsize);
	syms = o->sections[si].data;
	n = o->sections[si].size / L->symsize;
	if (n < 2)
		return 0;
	o->symbols = calloc(n, sizeof *o->symbols);
	if (!o->symbols)
		return obj_fail(err, errlen, "out of memory");
	for (uint64_t i = 1; i < n; i++) {
		const uint8_t *p = syms + i * L->symsize;
		unsigned info = p[L->st_info], type = info & 15, bind = info >> 4;
		uint64_t shndx = u16(e, p + L->st_shndx), value = word(e, p + L->st_value);
		struct obj_symbol *sym = &o->symbols[o->nsymbols];
		const char *name = obj_str(strtab, strsize, u32(e, p));

		if (!name)
			return obj_fail(err, errlen, "ELF symbol %llu name outside the string table",
			                (unsigned long long)i);
		if (!*name || type == STT_SECTION || type == STT_FILE)
			continue;
		sym->name = name;
		sym->size = word(e, p + L->st_size);
		sym->is_func = type == STT_FUNC || type == STT_GNU_IFUNC;
		sym->is_data = type == STT_OBJECT || type == STT_COMMON || type == STT_TLS;
		sym->typed = 1;
		sym->is_global = bind == 1 || bind == 2 || bind == 10;   /* GLOBAL WEAK UNIQUE */
		sym->section = -1;
		sym->mapping = type == 0 && rules && rules->mapping ? rules->mapping(name) : 0;
		sym->thumb = sym->is_func && rules && rules->func_mode && rules->func_mode(&value);
		sym->value = value;
		/* Reserved indices (ABS, COMMON, XINDEX) have no section we read. */
		if (shndx && shndx < SHN_LORESERVE && shndx < e->shnum) {
			const struct obj_section *sec = &o->sections[shndx];
			if (relocatable) {
				sym->section = (int)shndx;
			} else if (value >= sec->addr && value - sec->addr <= sec->size) {
				sym->section = (int)shndx;
				sym->value = value - sec->addr;
			}
		}
		o->nsymbols++;
	}
	return 0;
}

/* The relocations of one SHT_REL/SHT_RELA section si into o->relocs. */
static int read_rel_section(struct obj *o, const struct elf *e, uint64_t si, char *err, size_t errlen)
{
	const struct elf_layout *L = e->L;
	const uint8_t *s = shdr(e, si);
	uint64_t link = u32(e, s + L->sh_link), target = u32(e, s + L->sh_link + 4);
	uint64_t ent = (e->is64 ? 16 : 8) + (u32(e, s + 4) == SHT_RELA) * (e->is64 ? 8 : 4);
	const struct obj_section *rel = &o->sections[si];
	if (!link || link >= e->shnum || !o->sections[link].data || target >= e->shnum || !rel->data ||
	    word(e, s + L->sh_entsize) != ent)
		return obj_fail(err, errlen, "ELF relocation section %s: bad symbol table, target or entry size", rel->name);
	const uint8_t *syms = o->sections[link].data, *strs;
	uint64_t nsyms = o->sections[link].size / L->symsize, strndx = u32(e, shdr(e, link) + L->sh_link), n = rel->size / ent;
	if (!strndx || strndx >= e->shnum || !o->sections[strndx].data)
		return obj_fail(err, errlen, "ELF relocation section %s: its symbols have no string table", rel->name);
	strs = o->sections[strndx].data;
	struct obj_reloc *r = realloc(o->relocs, (o->nrelocs + n + 1) * sizeof *r);
	if (!r)
		return obj_fail(err, errlen, "out of memory");
	o->relocs = r;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *p = rel->data + i * ent;
		uint64_t info = word(e, p + (e->is64 ? 8 : 4)), sym = e->is64 ? info >> 32 : info >> 8;
		const char *name = sym < nsyms ? obj_str(strs, o->sections[strndx].size, u32(e, syms + sym * L->symsize)) : NULL;
		if (!name)
			return obj_fail(err, errlen, "ELF relocation %llu of %s names no symbol", (unsigned long long)i, rel->name);
		o->relocs[o->nrelocs++] = (struct obj_reloc){(int)target, word(e, p), name};
	}
	return 0;
}

static int read_relocs(struct obj *o, const struct elf *e, char *err, size_t errlen)
{
	for (uint64_t i = 1; i < e->shnum; i++) {
		uint32_t type = u32(e, shdr(e, i) + 4);
		if ((type == SHT_REL || type == SHT_RELA) && read_rel_section(o, e, i, err, errlen))
			return -1;
	}
	return 0;
}

static int by_place(const void *x, const void *y)
{
	const struct obj_symbol *a = *(const struct obj_symbol *const *)x, *b = *(const struct obj_symbol *const *)y;
	if (a->section != b->section)
		return a->section < b->section ? -1 : 1;
	return a->value < b->value ? -1 : a->value > b->value;
}

/* Reverse each whole unit-byte unit of d[from..to). */
static void swap_units(uint8_t *d, uint64_t from, uint64_t to, unsigned unit)
{
	for (uint64_t i = from; to - i >= unit; i += unit)
		for (unsigned k = 0; k < unit / 2; k++) {
			uint8_t t = d[i + k];
			d[i + k] = d[i + unit - 1 - k];
			d[i + unit - 1 - k] = t;
		}
}

/* What the machine's rules reorder (struct obj_rules.code_unit). */
struct reorder { const struct obj_rules *rules; const struct obj *o; uint32_t flags; };

/* One code section's bytes d[0..size) with its mapping symbols map[0..n)
 * in address order: each stretch's units reversed as the rules say for
 * its mapping letter. */
static void section_order(const struct reorder *r, uint8_t *d, uint64_t size,
                          const struct obj_symbol *const *map, size_t n)
{
	char kind = 0;
	uint64_t from = 0;
	for (size_t k = 0;; k++) {
		uint64_t to = k < n && map[k]->value < size ? map[k]->value : size;
		unsigned unit = r->rules->code_unit(r->o, r->flags, kind);
		if (unit > 1)
			swap_units(d, from, to, unit);
		if (to == size)
			return;
		kind = map[k]->mapping;
		from = to;
	}
}

/* Code its machine stores in another order than its module reads
 * (big-endian ARM without BE8, big-endian Power) is rewritten, by the mapping symbols, in copies of the code sections,
 * so the decoders and the catalog's bytes see one instruction order in
 * objects of either byte order. */
static int module_order(struct obj *o, const struct reorder *r, size_t len, char *err, size_t errlen)
{
	uint64_t total = 0, at = 0;
	size_t nmap = 0, m = 0;
	for (size_t i = 0; i < o->nsections; i++)
		if (o->sections[i].is_code && o->sections[i].data)
			total += o->sections[i].size;
	/* Sections with contents do not share file bytes; headers that make
	 * them do must not make the copies outgrow the file. */
	if (total > len)
		return obj_fail(err, errlen, "ELF code sections overlap (%llu bytes in a file of %zu)",
		                (unsigned long long)total, len);
	const struct obj_symbol **map = malloc((o->nsymbols + 1) * sizeof *map);
	o->owned = malloc(total ? total : 1);
	if (!map || !o->owned) {
		free(map);
		return obj_fail(err, errlen, "out of memory");
	}
	for (size_t i = 0; i < o->nsymbols; i++)
		if (o->symbols[i].mapping && o->symbols[i].section >= 0)
			map[nmap++] = &o->symbols[i];
	qsort(map, nmap, sizeof *map, by_place);
	for (size_t i = 0; i < o->nsections; i++) {
		struct obj_section *sec = &o->sections[i];
		size_t first;
		while (m < nmap && map[m]->section < (int)i)
			m++;
		for (first = m; m < nmap && map[m]->section == (int)i; m++)
			;
		if (!sec->is_code || !sec->data)
			continue;
		sec->data = memcpy(o->owned + at, sec->data, sec->size);
		at += sec->size;
		section_order(r, o->owned + at - sec->size, sec->size, map + first, m - first);
	}
	free(map);
	return 0;
}

/* e set up for buf[0..len) from its identification: 0, or -1 with err. */
static int elf_open(struct elf *e, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	*e = (struct elf){ .buf = buf, .len = len };
	if (len < 16)
		return obj_fail(err, errlen, "ELF identification truncated");
	if (buf[4] != 1 && buf[4] != 2)
		return obj_fail(err, errlen, "ELF class %u is neither 32 nor 64 bit", buf[4]);
	if (buf[5] != 1 && buf[5] != 2)
		return obj_fail(err, errlen, "unknown ELF data encoding %u", buf[5]);
	e->is64 = buf[4] == 2;
	e->be = buf[5] == 2;
	e->L = &layout[e->is64];
	if (len < e->L->ehsize)
		return obj_fail(err, errlen, "ELF header truncated (%zu of %u bytes)", len, e->L->ehsize);
	return 0;
}

int obj_parse_elf(struct obj *o, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	struct elf e;

	if (elf_open(&e, buf, len, err, errlen))
		return -1;
	o->format = OBJ_ELF;
	o->bits = e.is64 ? 64 : 32;
	o->big_endian = e.be;
	o->machine = u16(&e, buf + 18);
	int relocatable = u16(&e, buf + 16) == ET_REL;
	if (read_sections(o, &e, err, errlen) || read_symbols(o, &e, relocatable, err, errlen) ||
	    (relocatable && read_relocs(o, &e, err, errlen)))
		return -1;
	struct reorder r = {obj_rules_of(o), o, u32(&e, buf + e.L->e_flags)};
	if (r.rules && r.rules->code_unit && r.rules->code_unit(o, r.flags, 0))
		return module_order(o, &r, len, err, errlen);
	return 0;
}

/* ---- the dynamic section, through the program headers ---- */

/* Offsets of the program header fields, ELFCLASS32 [0] and ELFCLASS64 [1]. */
static const struct elf_phlayout {
	unsigned e_phoff, e_phentsize, e_phnum, phsize, p_offset, p_vaddr, p_filesz, dynsize;
} phlayout[2] = {
	{ 28, 42, 44,  32, 4, 8, 16,  8 },
	{ 32, 54, 56,  56, 8, 16, 32,  16 },
};

enum { PT_LOAD = 1, PT_DYNAMIC = 2 };
enum { DT_NULL = 0, DT_NEEDED = 1, DT_STRTAB = 5, DT_STRSZ = 10, DT_RPATH = 15, DT_RUNPATH = 29 };

struct elf_ph {
	const struct elf_phlayout *P;
	uint64_t phoff, phnum;
};

/* File offset of virtual address va, through the PT_LOAD headers: 0, or -1. */
static int va_to_offset(const struct elf *e, const struct elf_ph *ph, uint64_t va, uint64_t *off)
{
	for (uint64_t i = 0; i < ph->phnum; i++) {
		const uint8_t *p = e->buf + ph->phoff + i * ph->P->phsize;
		uint64_t o = word(e, p + ph->P->p_offset), v = word(e, p + ph->P->p_vaddr),
		         size = word(e, p + ph->P->p_filesz);
		if (u32(e, p) == PT_LOAD && va >= v && va - v < size) {
			*off = o + (va - v);
			return 0;
		}
	}
	return -1;
}

/* The PT_DYNAMIC segment's bytes: 0 (*size 0 when there is none), or -1. */
static int dynamic_segment(const struct elf *e, const struct elf_ph *ph, uint64_t *off, uint64_t *size,
                           char *err, size_t errlen)
{
	*size = 0;
	for (uint64_t i = 0; i < ph->phnum; i++) {
		const uint8_t *p = e->buf + ph->phoff + i * ph->P->phsize;
		if (u32(e, p) != PT_DYNAMIC)
			continue;
		*off = word(e, p + ph->P->p_offset);
		*size = word(e, p + ph->P->p_filesz);
		if (!obj_in_bounds(e->len, *off, *size))
			return obj_fail(err, errlen, "ELF dynamic segment (offset %llu size %llu) outside the file",
			                (unsigned long long)*off, (unsigned long long)*size);
		return 0;
	}
	return 0;
}

/* The names DT_NEEDED, DT_RUNPATH and DT_RPATH give as offsets, resolved
 * in the string table DT_STRTAB/DT_STRSZ place: 0, or -1. */
static int dynamic_names(const struct elf *e, const struct elf_ph *ph, const uint8_t *dyn, uint64_t size,
                         struct obj_dynamic *d, char *err, size_t errlen)
{
	uint64_t needed[OBJ_NEEDED_MAX], strva = 0, strsz = 0, stroff, rpath = UINT64_MAX, runpath = UINT64_MAX;
	size_t n = 0;
	unsigned half = ph->P->dynsize / 2;
	for (uint64_t k = 0; k + ph->P->dynsize <= size; k += ph->P->dynsize) {
		uint64_t tag = word(e, dyn + k), val = word(e, dyn + k + half);
		if (tag == DT_NULL)
			break;
		if (tag == DT_NEEDED && n < OBJ_NEEDED_MAX)
			needed[n++] = val;
		else if (tag == DT_STRTAB)
			strva = val;
		else if (tag == DT_STRSZ)
			strsz = val;
		else if (tag == DT_RPATH && rpath == UINT64_MAX)
			rpath = val;
		else if (tag == DT_RUNPATH && runpath == UINT64_MAX)
			runpath = val;
	}
	if (!n && runpath == UINT64_MAX && rpath == UINT64_MAX)
		return 0;
	if (va_to_offset(e, ph, strva, &stroff) || !obj_in_bounds(e->len, stroff, strsz))
		return obj_fail(err, errlen, "ELF dynamic string table (address 0x%llx, %llu bytes) outside the file",
		                (unsigned long long)strva, (unsigned long long)strsz);
	const uint8_t *str = e->buf + stroff;
	for (size_t i = 0; i < n; i++)
		if (!(d->needed[d->nneeded++] = obj_str(str, strsz, needed[i])))
			return obj_fail(err, errlen, "ELF DT_NEEDED name outside the dynamic string table");
	/* DT_RUNPATH overrides DT_RPATH where a program has both (gABI). */
	uint64_t path = runpath != UINT64_MAX ? runpath : rpath;
	if (path != UINT64_MAX && !(d->runpath = obj_str(str, strsz, path)))
		return obj_fail(err, errlen, "ELF DT_RUNPATH name outside the dynamic string table");
	return 0;
}

int obj_elf_dynamic(const uint8_t *buf, size_t len, struct obj_dynamic *d, char *err, size_t errlen)
{
	struct elf e;
	memset(d, 0, sizeof *d);
	if (len < 4 || memcmp(buf, "\177ELF", 4))
		return obj_fail(err, errlen, "not an ELF file");
	if (elf_open(&e, buf, len, err, errlen))
		return -1;
	struct elf_ph ph = { .P = &phlayout[e.is64] };
	ph.phoff = word(&e, buf + ph.P->e_phoff);
	ph.phnum = u16(&e, buf + ph.P->e_phnum);
	if (!ph.phnum)
		return 0;      /* a relocatable object: no program headers, nothing needed */
	if (u16(&e, buf + ph.P->e_phentsize) != ph.P->phsize)
		return obj_fail(err, errlen, "ELF program header size %u, expected %u",
		                (unsigned)u16(&e, buf + ph.P->e_phentsize), ph.P->phsize);
	if (!obj_in_bounds(len, ph.phoff, ph.phnum * ph.P->phsize))
		return obj_fail(err, errlen, "ELF program headers (%llu at %llu) outside the file",
		                (unsigned long long)ph.phnum, (unsigned long long)ph.phoff);
	uint64_t off, size;
	if (dynamic_segment(&e, &ph, &off, &size, err, errlen))
		return -1;
	return size ? dynamic_names(&e, &ph, buf + off, size, d, err, errlen) : 0;
}
