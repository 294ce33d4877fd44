/* SPDX-License-Identifier: MIT */
/* Reading .note.gnu.property (the gABI note layout; the property array of
 * the Linux x86-64 and AArch64 psABIs).  Every read is bounds-checked:
 * a note that does not parse is no note. */
#include "gnuprop.h"

#include <string.h>

/* The note's words are in the object's byte order (aarch64_be). */
static uint32_t word32(int be, const uint8_t *p)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] : obj_le32(p);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* The properties of one NT_GNU_PROPERTY_TYPE_0 descriptor d[0..n):
 * pr_type, pr_datasz, then the data padded to the ELF class's word. */
static int find_property(int be, const uint8_t *d, uint64_t n, uint64_t align, uint32_t pr_type, uint32_t *bits)
{
	for (uint64_t off = 0; n - off >= 8;) {
		uint32_t type = word32(be, d + off), size = word32(be, d + off + 4);
		if (size > n - off - 8)
			return 0;
		if (type == pr_type && size == 4) {
			*bits = word32(be, d + off + 8);
			return 1;
		}
		off = align_up(off + 8 + size, align);
		if (off > n)
			return 0;
	}
	return 0;
}

int obj_gnu_property_word(const struct obj *o, uint32_t pr_type, uint32_t *bits)
{
	const struct obj_section *s = obj_section_named(o, ".note.gnu.property");
	if (o->format != OBJ_ELF || !s || !s->data)
		return 0;
	const uint8_t *d = s->data;
	int be = o->big_endian;
	uint64_t n = s->size, align = o->bits == 64 ? 8 : 4;
	for (uint64_t off = 0; n - off >= 12;) {
		uint64_t namesz = word32(be, d + off), descsz = word32(be, d + off + 4);
		uint32_t type = word32(be, d + off + 8);
		uint64_t desc = off + 12 + align_up(namesz, 4);
		if (desc > n || descsz > n - desc)
			return 0;
		if (type == 5 && namesz == 4 && !memcmp(d + off + 12, "GNU", 4) &&   /* NT_GNU_PROPERTY_TYPE_0 */
		    find_property(be, d + desc, descsz, align, pr_type, bits))
			return 1;
		off = align_up(desc + descsz, align);
		if (off > n)
			return 0;
	}
	return 0;
}
