/* SPDX-License-Identifier: MIT */
/* The JSON reader (json.h): recursive descent over the whole text. */
#include "json.h"
#include "out.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rd {
	const char *p, *start, *end;
	int depth;
	char *err;
	size_t errlen;
};

/* Records the first error, with the line it is on: always -1. */
static int fail(struct rd *r, const char *what)
{
	if (!*r->err) {
		unsigned line = 1;
		for (const char *q = r->start; q < r->p && q < r->end; q++)
			line += *q == '\n';
		snprintf(r->err, r->errlen, "line %u: %s", line, what);
	}
	return -1;
}

static void skip_space(struct rd *r)
{
	while (r->p < r->end && strchr(" \t\r\n", *r->p) && *r->p)
		r->p++;
}

static int literal(struct rd *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
		return fail(r, "not a JSON value");
	r->p += n;
	return 0;
}

static int hex4(struct rd *r, unsigned *u)
{
	*u = 0;
	for (int i = 0; i < 4; i++, r->p++) {
		int c = r->p < r->end ? *r->p : 0, d = c >= '0' && c <= '9' ? c - '0' :
		        c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return fail(r, "bad \\u escape");
		*u = *u << 4 | (unsigned)d;
	}
	return 0;
}

/* \uXXXX (a surrogate pair as one code point) appended as UTF-8. */
static int unicode(struct rd *r, struct buf *b)
{
	unsigned u, lo;
	if (hex4(r, &u))
		return -1;
	if (u >= 0xd800 && u < 0xdc00) {
		if (r->end - r->p < 2 || memcmp(r->p, "\\u", 2))
			return fail(r, "a lone surrogate in a \\u escape");
		r->p += 2;
		if (hex4(r, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return fail(r, "a lone surrogate in a \\u escape");
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	} else if (u >= 0xdc00 && u < 0xe000)
		return fail(r, "a lone surrogate in a \\u escape");
	if (!u)
		return fail(r, "\\u0000 in a string");
	char s[4];
	size_t n = u < 0x80 ? 1 : u < 0x800 ? 2 : u < 0x10000 ? 3 : 4;
	static const unsigned char lead[] = {0, 0, 0xc0, 0xe0, 0xf0};
	for (size_t k = n - 1; k > 0; k--, u >>= 6)
		s[k] = (char)(0x80 | (u & 0x3f));
	s[0] = (char)(lead[n] | u);
	buf_add(b, s, n);
	return 0;
}

/* A string from its opening quote: the decoded text in *out (malloc'd). */
static int string(struct rd *r, char **out)
{
	struct buf b = {0};
	buf_puts(&b, "");
	for (r->p++; r->p < r->end && *r->p != '"'; ) {
		unsigned char c = (unsigned char)*r->p++;
		const char *esc = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *k;
		if (c < 0x20)
			return buf_free(&b), fail(r, "a control character in a string");
		if (c != '\\') {
			buf_add(&b, (const char *)&c, 1);
			continue;
		}
		if (r->p == r->end)
			break;
		c = (unsigned char)*r->p++;
		if (c == 'u') {
			if (unicode(r, &b))
				return buf_free(&b), -1;
		} else if (c && (k = strchr(esc, c)))
			buf_add(&b, to + (k - esc), 1);
		else
			return buf_free(&b), fail(r, "bad escape in a string");
	}
	if (r->p == r->end)
		return buf_free(&b), fail(r, "unterminated string");
	r->p++;
	*out = b.s;
	return 0;
}

static int number(struct rd *r, double *out)
{
	const char *q = r->p;
	q += q < r->end && *q == '-';
	if (q == r->end || *q < '0' || *q > '9')
		return fail(r, "not a JSON value");
	/* strtod would read past the text's end: copy what can be a number */
	char tmp[64];
	size_t n = 0;
	while (r->p + n < r->end && strchr("+-0123456789.eE", r->p[n]) && r->p[n])
		n++;
	if (n >= sizeof tmp)
		return fail(r, "a number too long");
	memcpy(tmp, r->p, n);
	tmp[n] = 0;
	char *e;
	*out = strtod(tmp, &e);
	r->p += e - tmp;
	return 0;
}

static int value(struct rd *r, struct json *j);

/* An array or object from its opening bracket; members of an object have keys. */
static int members(struct rd *r, struct json *j, int object)
{
	const char close = object ? '}' : ']';
	size_t cap = 0;
	r->p++;
	skip_space(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return 0;
	}
	for (;;) {
		if (j->n == cap) {
			cap = 2 * cap + 4;
			j->item = xrealloc(j->item, cap * sizeof *j->item);
			if (object)
				j->key = xrealloc(j->key, cap * sizeof *j->key);
		}
		skip_space(r);
		if (r->p == r->end)
			return fail(r, object ? "the text ends inside an object" : "the text ends inside an array");
		if (object) {
			if (r->p == r->end || *r->p != '"' || string(r, &j->key[j->n]))
				return fail(r, "an object key must be a string");
			skip_space(r);
			if (r->p == r->end || *r->p++ != ':')
				return free(j->key[j->n]), fail(r, "`:' expected after an object key");
		}
		memset(&j->item[j->n], 0, sizeof *j->item);
		int bad = value(r, &j->item[j->n++]);
		if (bad)
			return -1;
		skip_space(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p++ == close)
			return 0;
		return fail(r, object ? "`,' or `}' expected" : "`,' or `]' expected");
	}
}

static int value(struct rd *r, struct json *j)
{
	skip_space(r);
	if (r->p == r->end)
		return fail(r, "a value expected, not the end of the text");
	switch (*r->p) {
	case '{': case '[':
		if (++r->depth > JSON_DEPTH)
			return fail(r, "nested too deep");
		j->type = *r->p == '{' ? JSON_OBJECT : JSON_ARRAY;
		int bad = members(r, j, j->type == JSON_OBJECT);
		r->depth--;
		return bad;
	case '"':
		j->type = JSON_STRING;
		return string(r, &j->str);
	case 't':
		j->type = JSON_TRUE;
		return literal(r, "true");
	case 'f':
		j->type = JSON_FALSE;
		return literal(r, "false");
	case 'n':
		j->type = JSON_NULL;
		return literal(r, "null");
	default:
		j->type = JSON_NUMBER;
		return number(r, &j->num);
	}
}

int json_parse(struct json *out, const char *text, size_t len, char *err, size_t errlen)
{
	struct rd r = {text, text, text + len, 0, err, errlen};
	*err = 0;
	memset(out, 0, sizeof *out);
	int bad = value(&r, out);
	skip_space(&r);
	if (!bad && r.p != r.end)
		bad = fail(&r, "text after the JSON value");
	if (bad)
		json_free(out);
	return bad;
}

const struct json *json_get(const struct json *j, const char *key)
{
	for (size_t i = 0; j && j->type == JSON_OBJECT && i < j->n; i++)
		if (!strcmp(j->key[i], key))
			return &j->item[i];
	return NULL;
}

const char *json_get_str(const struct json *j, const char *key)
{
	const struct json *v = json_get(j, key);
	return v && v->type == JSON_STRING ? v->str : NULL;
}

void json_free(struct json *j)
{
	for (size_t i = 0; i < j->n; i++) {
		json_free(&j->item[i]);
		if (j->key)
			free(j->key[i]);
	}
	free(j->item);
	free(j->key);
	free(j->str);
	memset(j, 0, sizeof *j);
}
