/* SPDX-License-Identifier: MIT */
/* ar archives: the common "!<arch>\n" format with GNU long names ("//"
 * table, "/123" references) and BSD long names ("#1/LEN" before the data).
 * Symbol index members ("/", "/SYM64/", "__.SYMDEF...") are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obj.h"

enum { MAGIC = 8, HDR = 60 };

int ar_is_archive(const uint8_t *buf, size_t len)
{
	return len >= MAGIC && !memcmp(buf, "!<arch>\n", MAGIC);
}

static int ar_fail(char *err, size_t errlen, const char *what, size_t at)
{
	snprintf(err, errlen, "unreadable archive: %s (at byte %zu)", what, at);
	return -1;
}

/* A decimal field of width w, space padded; -1 if not a number. */
static int64_t decimal(const uint8_t *p, size_t w)
{
	int64_t v = 0;
	size_t i = 0;

	while (i < w && p[i] == ' ')
		i++;
	if (i == w || p[i] < '0' || p[i] > '9')
		return -1;
	for (; i < w && p[i] >= '0' && p[i] <= '9'; i++) {
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	for (; i < w; i++)
		if (p[i] != ' ')
			return -1;
	return v;
}

struct member { const uint8_t *hdr, *data; size_t size; };

/* The member whose header is at *pos, advancing *pos past it. */
static int member_at(const uint8_t *buf, size_t len, size_t *pos, struct member *m,
                     char *err, size_t errlen)
{
	int64_t size;

	if (!obj_in_bounds(len, *pos, HDR))
		return ar_fail(err, errlen, "member header truncated", *pos);
	m->hdr = buf + *pos;
	if (m->hdr[58] != '`' || m->hdr[59] != '\n')
		return ar_fail(err, errlen, "member header lacks its \"`\\n\" terminator", *pos);
	size = decimal(m->hdr + 48, 10);
	if (size < 0 || !obj_in_bounds(len, *pos + HDR, (uint64_t)size))
		return ar_fail(err, errlen, "member size missing or past the end of the file", *pos);
	m->data = m->hdr + HDR;
	m->size = (size_t)size;
	*pos += HDR + m->size + (m->size & 1);   /* members start on even offsets */
	if (*pos > len)
		*pos = len;
	return 0;
}

static int is_index(const uint8_t *h)
{
	return !memcmp(h, "/               ", 16) || !memcmp(h, "/SYM64/         ", 16) ||
	       !memcmp(h, "__.SYMDEF", 9);
}

/* GNU "/123": look the name up in the "//" member, which precedes it. */
static int gnu_long_name(const uint8_t *buf, size_t len, size_t at, int64_t off, char *name,
                         size_t namelen, char *err, size_t errlen)
{
	size_t pos = MAGIC;
	struct member m;

	while (pos < at) {
		if (member_at(buf, len, &pos, &m, err, errlen))
			return -1;
		if (memcmp(m.hdr, "//              ", 16))
			continue;
		if ((uint64_t)off >= m.size)
			break;
		for (size_t e = (size_t)off; e < m.size; e++)
			if (m.data[e] == '\n' || m.data[e] == 0) {
				/* GNU ends each name with "/\n"; tolerate a missing '/'. */
				size_t n = e - (size_t)off;
				if (n && m.data[e - 1] == '/')
					n--;
				obj_set_name(name, namelen, (const char *)m.data + off, n);
				return 0;
			}
		break;
	}
	return ar_fail(err, errlen, "long member name outside the \"//\" table", at);
}

/* Short names: GNU ends them with '/', BSD pads with spaces. */
static void short_name(const uint8_t *h, char *name, size_t namelen)
{
	size_t n = 16;

	while (n && h[n - 1] == ' ')
		n--;
	if (n && h[n - 1] == '/')
		n--;
	obj_set_name(name, namelen, (const char *)h, n);
}

int ar_next(const uint8_t *buf, size_t len, size_t *pos, char *name, size_t namelen,
            const uint8_t **data, size_t *datalen, char *err, size_t errlen)
{
	struct member m;

	if (!ar_is_archive(buf, len))
		return ar_fail(err, errlen, "no \"!<arch>\" magic", 0);
	if (*pos < MAGIC)
		*pos = MAGIC;
	for (;;) {
		size_t at = *pos;
		if (at >= len)
			return 0;
		if (member_at(buf, len, pos, &m, err, errlen))
			return -1;
		if (is_index(m.hdr) || !memcmp(m.hdr, "//              ", 16))
			continue;
		*data = m.data;
		*datalen = m.size;
		if (m.hdr[0] == '/' && m.hdr[1] >= '0' && m.hdr[1] <= '9') {
			int64_t off = decimal(m.hdr + 1, 15);
			if (off < 0)
				return ar_fail(err, errlen, "bad GNU long name reference", at);
			return gnu_long_name(buf, len, at, off, name, namelen, err, errlen) ? -1 : 1;
		}
		if (!memcmp(m.hdr, "#1/", 3)) {
			int64_t n = decimal(m.hdr + 3, 13);
			if (n < 0 || (uint64_t)n > m.size)
				return ar_fail(err, errlen, "bad BSD long name length", at);
			/* BSD's symbol index hides behind a long name too. */
			if (n >= 9 && !memcmp(m.data, "__.SYMDEF", 9))
				continue;
			obj_set_name(name, namelen, (const char *)m.data, (size_t)n);
			*data = m.data + n;
			*datalen = m.size - (size_t)n;
			return 1;
		}
		short_name(m.hdr, name, namelen);
		return 1;
	}
}
