/* SPDX-License-Identifier: MIT */
/* Words: a command as argv, split shell-style, joined for messages. */
#include "argv.h"
#include "tmpdir.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strv_push(struct strv *s, const char *word)
{
	if (s->n + 2 > s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = word ? xstrdup(word) : NULL;
	s->v[s->n] = NULL;
}

void strv_append(struct strv *s, const struct strv *more)
{
	for (size_t i = 0; i < more->n; i++)
		strv_push(s, more->v[i]);
}

int strv_has(const struct strv *s, const char *word)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], word))
			return 1;
	return 0;
}

void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

int argv_split_words(const char *t, struct strv *out, char *err, size_t errlen)
{
	size_t len = strlen(t), n = 0;
	char *w = xrealloc(NULL, len + 1);
	int inword = 0;
	for (const char *p = t; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			if (inword) {
				w[n] = 0;
				strv_push(out, w);
				n = 0;
				inword = 0;
			}
			continue;
		}
		inword = 1;
		if (*p == '\\') {
			if (p[1] == '\n')
				p++;
			else if (p[1])
				w[n++] = *++p;
		} else if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');
			if (!q)
				goto unterminated;
			memcpy(w + n, p + 1, q - p - 1);
			n += q - p - 1;
			p = q;
		} else if (*p == '"') {
			for (p++; *p != '"'; p++) {
				if (!*p)
					goto unterminated;
				if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1]))
					p++;
				w[n++] = *p;
			}
		} else
			w[n++] = *p;
	}
	if (inword) {
		w[n] = 0;
		strv_push(out, w);
	}
	free(w);
	return 0;
unterminated:
	free(w);
	snprintf(err, errlen, "unterminated quote in `%s'", t);
	return -1;
}

char *argv_join(char *const argv[])
{
	size_t cap = 64, n = 0;
	char *s = xrealloc(NULL, cap);
	s[0] = 0;
	for (size_t i = 0; argv[i]; i++) {
		const char *a = argv[i];
		int plain = *a && !a[strcspn(a, " \t\n'\"\\$`*?[]#~=&;|<>(){}")];
		size_t need = n + 4 * strlen(a) + 4;
		if (need > cap)
			s = xrealloc(s, cap = 2 * need);
		if (i)
			s[n++] = ' ';
		if (plain) {
			strcpy(s + n, a);
			n += strlen(a);
		} else {
			s[n++] = '\'';
			for (; *a; a++) {
				if (*a == '\'') {
					memcpy(s + n, "'\\''", 4);
					n += 4;
				} else
					s[n++] = *a;
			}
			s[n++] = '\'';
		}
		s[n] = 0;
	}
	return s;
}


char *argv_brief(char *const argv[])
{
	enum { KEEP_HEAD = 240, KEEP_TAIL = 120 };
	char *s = argv_join(argv);
	size_t n = strlen(s);
	tmpdir_scrub(s, &n);
	if (n <= KEEP_HEAD + KEEP_TAIL + 40)
		return s;
	/* cut between UTF-8 characters, never inside one */
	size_t h = KEEP_HEAD, t = n - KEEP_TAIL;
	while (h && ((unsigned char)s[h] & 0xc0) == 0x80)
		h--;
	while (t < n && ((unsigned char)s[t] & 0xc0) == 0x80)
		t++;
	char mid[64];
	int m = snprintf(mid, sizeof mid, " ...[%zu bytes]... ", t - h);
	memmove(s + h + m, s + t, n - t + 1);
	memcpy(s + h, mid, m);
	return s;
}
