/* SPDX-License-Identifier: MIT */
/* Object readers: format detection and the helpers every reader shares. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obj.h"

int obj_in_bounds(size_t len, uint64_t off, uint64_t size)
{
	return off <= len && size <= len - off;
}

uint16_t obj_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

uint32_t obj_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t obj_le64(const uint8_t *p)
{
	return obj_le32(p) | (uint64_t)obj_le32(p + 4) << 32;
}

const char *obj_str(const uint8_t *tab, uint64_t tablen, uint64_t off)
{
	if (!tab || off >= tablen || !memchr(tab + off, 0, tablen - off))
		return NULL;
	return (const char *)tab + off;
}

int obj_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!errlen)
		return -1;
	n = snprintf(err, errlen, "unreadable object: ");
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Copies at most alen bytes of a (stopping at a NUL), truncating to fit. */
void obj_set_name(char *dst, size_t dstlen, const char *a, size_t alen)
{
	size_t n = 0;

	if (!dstlen)
		return;
	while (n < alen && a[n] && n + 1 < dstlen) {
		dst[n] = a[n];
		n++;
	}
	dst[n] = 0;
}

int obj_parse(struct obj *o, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	int r;

	memset(o, 0, sizeof *o);
	if (!buf || len < 4)
		return obj_fail(err, errlen, "file too short (%zu bytes)", len);
	if (!memcmp(buf, "\177ELF", 4))
		r = obj_parse_elf(o, buf, len, err, errlen);
	else if (obj_le32(buf) == 0xfeedfacf || obj_le32(buf) == 0xfeedface)
		r = obj_parse_macho(o, buf, len, err, errlen);
	else if (obj_coff_machine_name(obj_le16(buf)))
		r = obj_parse_coff(o, buf, len, err, errlen);
	else if (obj_le32(buf) == 0xffff0000)
		return obj_fail(err, errlen, "COFF bigobj or import-library files are not supported");
	else if (len >= 8 && !memcmp(buf, "!<thin>\n", 8))
		return obj_fail(err, errlen, "a thin archive: audit the member files it names");
	else if (ar_is_archive(buf, len))
		return obj_fail(err, errlen, "an ar archive, not an object (read its members)");
	else if (obj_le32(buf) == 0xcafebabe || obj_le32(buf) == 0xbebafeca)
		return obj_fail(err, errlen, "universal (fat) Mach-O files are not supported");
	else if (!memcmp(buf, "MZ", 2))
		return obj_fail(err, errlen, "PE images are not supported (only COFF objects)");
	else
		return obj_fail(err, errlen, "unknown format (magic %02x %02x %02x %02x)",
		                buf[0], buf[1], buf[2], buf[3]);
	if (r)
		obj_free(o);
	return r;
}

static const struct obj_rules *(*rules_finder)(const struct obj *o);

void obj_use_rules(const struct obj_rules *(*find)(const struct obj *o))
{
	rules_finder = find;
}

const struct obj_rules *obj_rules_of(const struct obj *o)
{
	return rules_finder ? rules_finder(o) : NULL;
}

void obj_free(struct obj *o)
{
	free(o->sections);
	free(o->symbols);
	free(o->relocs);
	free(o->owned);
	memset(o, 0, sizeof *o);
}

const char *obj_coff_machine_name(unsigned machine)
{
	static const struct { unsigned m; const char *name; } known[] = {
		{0x8664, "coff-x86-64"}, {0x14c, "coff-i386"}, {0xaa64, "coff-arm64"}, {0x1c4, "coff-arm"},
	};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (known[i].m == machine)
			return known[i].name;
	return NULL;
}

const char *obj_format_name(const struct obj *o)
{
	switch (o->format) {
	case OBJ_ELF:
		return o->bits == 64 ? "elf64" : "elf32";
	case OBJ_COFF:
		return obj_coff_machine_name(o->machine);
	case OBJ_MACHO:
		return o->bits == 64 ? "macho64" : "macho32";
	}
	return "unknown";
}

const struct obj_section *obj_section_named(const struct obj *o, const char *name)
{
	for (size_t i = 0; i < o->nsections; i++)
		if (!strcmp(o->sections[i].name, name))
			return &o->sections[i];
	return NULL;
}

int obj_is_bitcode(const uint8_t *buf, size_t len)
{
	return len >= 4 && (!memcmp(buf, "BC\xc0\xde", 4) || obj_le32(buf) == 0x0b17c0de);
}

int obj_has_gimple(const struct obj *o)
{
	for (size_t i = 0; i < o->nsections; i++)
		if (!strncmp(o->sections[i].name, ".gnu.lto_", 9))
			return 1;
	return 0;
}

const struct obj_section *obj_section_listed(const struct obj *o, const char *names)
{
	while (*names) {
		names += strspn(names, ", \t");
		size_t n = strcspn(names, ",");
		const char *next = names + n;
		while (n && (names[n - 1] == ' ' || names[n - 1] == '\t'))
			n--;
		for (size_t i = 0; n && i < o->nsections; i++) {
			const char *s = o->sections[i].name, *sect = strchr(s, ',');
			if ((!strncmp(s, names, n) && !s[n]) ||
			    (o->format == OBJ_MACHO && sect && !strncmp(sect + 1, names, n) && !sect[1 + n]))
				return &o->sections[i];
		}
		names = next;
	}
	return NULL;
}

/* Mach-O and 32-bit Windows decorate C names with a leading underscore. */
static int decorated(const struct obj *o)
{
	return o->format == OBJ_MACHO || (o->format == OBJ_COFF && o->machine == 0x14c);
}

const struct obj_symbol *obj_symbol_named(const struct obj *o, const char *name)
{
	for (size_t i = 0; i < o->nsymbols; i++)
		if (!strcmp(o->symbols[i].name, name))
			return &o->symbols[i];
	if (!decorated(o))
		return NULL;
	for (size_t i = 0; i < o->nsymbols; i++)
		if (o->symbols[i].name[0] == '_' && !strcmp(o->symbols[i].name + 1, name))
			return &o->symbols[i];
	return NULL;
}

uint64_t obj_symbol_end(const struct obj *o, const struct obj_symbol *s)
{
	uint64_t end = o->sections[s->section].size;
	if (s->size)
		return s->value + s->size;
	for (size_t i = 0; i < o->nsymbols; i++)
		if (o->symbols[i].section == s->section && !o->symbols[i].mapping && o->symbols[i].value > s->value &&
		    o->symbols[i].value < end)
			end = o->symbols[i].value;
	return end;
}
