/* SPDX-License-Identifier: MIT */
/* A JSON reader (RFC 8259) for what asmcap reads back: caps.json and
 * audit's JSON, kept as baselines.  The files are the user's, so anything
 * malformed is an error naming the line, never a crash; nesting deeper
 * than JSON_DEPTH is refused rather than exhausting the stack. */
#ifndef ASMCAP_JSON_H
#define ASMCAP_JSON_H

#include <stddef.h>

#define JSON_DEPTH 64

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	char *str;              /* JSON_STRING: the text, escapes decoded (UTF-8, no NUL) */
	double num;             /* JSON_NUMBER */
	struct json *item;      /* JSON_ARRAY, JSON_OBJECT: n values */
	char **key;             /* JSON_OBJECT: the n keys, parallel to item */
	size_t n;
};

/* The document text[0..len): 0 with *out filled, or -1 with err
 * ("line L: what was wrong"). */
int json_parse(struct json *out, const char *text, size_t len, char *err, size_t errlen);
/* The member named key of an object; NULL when j is not an object or has none. */
const struct json *json_get(const struct json *j, const char *key);
/* The string member named key, or NULL when it is absent or not a string. */
const char *json_get_str(const struct json *j, const char *key);
void json_free(struct json *j);

#endif
