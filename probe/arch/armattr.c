/* SPDX-License-Identifier: MIT */
/* Reading .ARM.attributes: format-version 'A', then subsections (uint32
 * length counting itself, vendor NTBS, data); "aeabi"'s data is
 * sub-subsections (ULEB128 tag, uint32 size counting both), of which tag 1
 * (File) holds tag/value pairs.  Every read is bounds-checked. */
#include "armattr.h"

#include <stdio.h>
#include <string.h>

/* The section's words are in the object's byte order (armeb). */
static uint32_t word32(int be, const uint8_t *p)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] : obj_le32(p);
}

static int attr_fail(char *err, size_t errlen, const char *what, uint64_t off)
{
	snprintf(err, errlen, ".ARM.attributes: %s at offset %llu", what, (unsigned long long)off);
	return -1;
}

/* A ULEB128 at d[*off..n), moving *off past it: 0, or -1 when it runs
 * past n or does not fit 64 bits. */
static int uleb(const uint8_t *d, uint64_t n, uint64_t *off, uint64_t *v)
{
	*v = 0;
	for (unsigned shift = 0; *off < n; shift += 7) {
		uint8_t b = d[(*off)++];
		if (shift > 63 || (shift == 63 && (b & 0x7e)))
			return -1;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

/* Tags whose value is a NUL-terminated string: CPU_raw_name, CPU_name,
 * 65 and 67; Tag_compatibility (32) has a ULEB128 then a string; above 32
 * an odd tag's value is a string (the ABI's rule for tags it may add). */
static int string_valued(uint64_t tag)
{
	return tag == 4 || tag == 5 || (tag > 32 && tag & 1);
}

/* The File attributes d[off..n) (offsets of the section, for messages):
 * 1 and *value when `tag' is among them, 0 if not, -1 with err. */
static int file_attributes(const uint8_t *d, uint64_t off, uint64_t n, unsigned tag, uint64_t *value,
                           char *err, size_t errlen)
{
	while (off < n) {
		uint64_t at = off, t, v = 0;
		if (uleb(d, n, &off, &t))
			return attr_fail(err, errlen, "bad ULEB128 tag", at);
		if (!string_valued(t) && uleb(d, n, &off, &v))
			return attr_fail(err, errlen, "bad ULEB128 value", at);
		if (string_valued(t) || t == 32) {
			const uint8_t *z = memchr(d + off, 0, n - off);
			if (!z)
				return attr_fail(err, errlen, "string value without its NUL", at);
			off = (uint64_t)(z - d) + 1;
		} else if (t == tag) {
			*value = v;
			return 1;
		}
	}
	return 0;
}

/* The "aeabi" subsection's data d[off..n): its File sub-subsections
 * (Section and Symbol ones are skipped whole). */
static int aeabi(int be, const uint8_t *d, uint64_t off, uint64_t n, unsigned tag, uint64_t *value,
                 char *err, size_t errlen)
{
	while (off < n) {
		uint64_t at = off, t;
		if (uleb(d, n, &off, &t))
			return attr_fail(err, errlen, "bad ULEB128 sub-subsection tag", at);
		if (n - off < 4)
			return attr_fail(err, errlen, "sub-subsection size cut short", off);
		uint64_t size = word32(be, d + off);
		if (size < off + 4 - at || size > n - at)
			return attr_fail(err, errlen, "sub-subsection size runs past its subsection", off);
		if (t == 1) {
			int r = file_attributes(d, off + 4, at + size, tag, value, err, errlen);
			if (r)
				return r;
		}
		off = at + size;
	}
	return 0;
}

int arm_attribute(const struct obj *o, unsigned tag, uint64_t *value, char *err, size_t errlen)
{
	const struct obj_section *s = obj_section_named(o, ".ARM.attributes");
	if (o->format != OBJ_ELF || !s || !s->data || !s->size)
		return 0;
	const uint8_t *d = s->data;
	uint64_t n = s->size, off = 1;
	if (d[0] != 'A')
		return attr_fail(err, errlen, "format version not 'A'", 0);
	while (off < n) {
		if (n - off < 4)
			return attr_fail(err, errlen, "subsection length cut short", off);
		uint64_t len = word32(o->big_endian, d + off);
		if (len < 5 || len > n - off)
			return attr_fail(err, errlen, "subsection length runs past the section", off);
		const uint8_t *z = memchr(d + off + 4, 0, len - 4);
		if (!z)
			return attr_fail(err, errlen, "vendor name without its NUL", off + 4);
		if (!strcmp((const char *)d + off + 4, "aeabi")) {
			int r = aeabi(o->big_endian, d, (uint64_t)(z - d) + 1, off + len, tag, value, err, errlen);
			if (r)
				return r;
		}
		off += len;
	}
	return 0;
}
