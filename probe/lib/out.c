/* SPDX-License-Identifier: MIT */
/* The generic variable writer and atomic, change-only file output. */
#include "out.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = 2 * (b->n + n + 1) + 64;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < (int)sizeof small) {
		buf_add(b, small, n);
		return;
	}
	char *big = xmalloc(n + 1);
	va_start(ap, fmt);
	vsnprintf(big, n + 1, fmt, ap);
	va_end(ap);
	buf_add(b, big, n);
	free(big);
}

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs,
 * no surrogates, nothing past U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned lo = 0x80, hi = 0xbf;
	size_t n;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, lo = p[0] == 0xe0 ? 0xa0 : 0x80, hi = p[0] == 0xed ? 0x9f : 0xbf;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, lo = p[0] == 0xf0 ? 0x90 : 0x80, hi = p[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

void buf_json_str(struct buf *b, const char *s)
{
	if (!s) {
		buf_puts(b, "null");
		return;
	}
	buf_puts(b, "\"");
	for (; *s; s++) {
		unsigned char c = *s;
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\u%04x", c);
		else if (c < 0x80)
			buf_add(b, (const char *)&c, 1);
		else {                  /* JSON is UTF-8: a byte that is not becomes U+FFFD */
			size_t n = utf8_len((const unsigned char *)s);
			if (n) {
				buf_add(b, s, n);
				s += n - 1;
			} else
				buf_puts(b, "\\ufffd");
		}
	}
	buf_puts(b, "\"");
}

void buf_json_strs(struct buf *b, char *const *v, size_t n)
{
	buf_puts(b, "[");
	for (size_t i = 0; i < n; i++) {
		buf_puts(b, i ? ", " : "");
		buf_json_str(b, v[i]);
	}
	buf_puts(b, "]");
}

void buf_json_members(struct buf *b, const struct json_member *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		buf_printf(b, "%s\"%s\": ", m[i].lead, m[i].key);
		buf_json_str(b, m[i].value);
	}
}

void buf_free(struct buf *b)
{
	free(b->s);
	b->s = NULL;
	b->n = b->cap = 0;
}

static const char *const names[] = {"text", "json", "sh", "make", "h", "perl", "cmake"};

int out_format_parse(const char *name, enum out_format *f)
{
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(name, names[i])) {
			*f = (enum out_format)i;
			return 0;
		}
	return -1;
}

const char *out_format_names(void)
{
	return OUT_FORMAT_NAMES;
}

char *out_var_name(const char *prefix, const char *word)
{
	size_t lp = strlen(prefix), lw = strlen(word);
	char *s = xmalloc(lp + lw + 1);
	memcpy(s, prefix, lp);
	for (size_t i = 0; i < lw; i++)
		s[lp + i] = isalnum((unsigned char)word[i]) ? toupper((unsigned char)word[i]) : '_';
	s[lp + lw] = 0;
	return s;
}

static int is_int(const char *v)
{
	const char *p = v + (*v == '-');
	if (!*p)
		return 0;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return 0;
	return 1;
}

static int is_bool(const char *v)
{
	return !strcmp(v, "yes") || !strcmp(v, "no");
}

void buf_text(struct buf *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = *s;
		if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\x%02x", c);
		else
			buf_add(b, s, 1);
	}
}

void buf_text_words(struct buf *b, char *const *v, size_t n, const char *first)
{
	for (size_t i = 0; i < n; i++) {
		buf_puts(b, i ? " " : first);
		buf_text(b, v[i]);
	}
}

/* A comment in any format: one line (buf_text), no C comment closer, and
 * no trailing backslash (make would continue the comment onto the next
 * line).  Every format's comments come through here. */
static void comment(struct buf *b, const char *open, const char *text, const char *close)
{
	struct buf t = {0};
	buf_text(&t, text);
	buf_puts(b, open);
	for (size_t i = 0; i < t.n; i++)
		buf_puts(b, t.s[i] == '*' && t.s[i + 1] == '/' ? "* " : (char[2]){t.s[i], 0});
	if (t.n && t.s[t.n - 1] == '\\')
		buf_puts(b, " ");
	buf_puts(b, close);
	buf_free(&t);
}

static int sh_plain(const char *v)
{
	if (!*v)
		return 0;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("-_./,:+=@%", *v))
			return 0;
	return 1;
}

/* sh: bare when plainly safe, else single quotes ('\'' for a quote);
 * nothing inside single quotes is expanded. */
static void value_sh(struct buf *b, const char *v)
{
	if (sh_plain(v)) {
		buf_puts(b, v);
		return;
	}
	buf_puts(b, "'");
	for (; *v; v++)
		buf_puts(b, *v == '\'' ? "'\\''" : (char[2]){*v, 0});
	buf_puts(b, "'");
}

/* make has no quoting: $ doubled, # escaped, a line break or control
 * character becomes a space, and $() (an empty expansion) guards leading
 * blanks and a trailing backslash, which make would strip or splice. */
static void value_make(struct buf *b, const char *v)
{
	if (*v == ' ' || *v == '\t')
		buf_puts(b, "$()");
	for (const char *p = v; *p; p++) {
		unsigned char c = *p;
		if (c == '$')
			buf_puts(b, "$$");
		else if (c == '#') {
			/* make reads \# as #, and backslashes before it as escapes too */
			size_t bs = 0;
			for (const char *q = p; q > v && q[-1] == '\\'; q--)
				bs++;
			for (size_t k = 0; k < bs; k++)
				buf_puts(b, "\\");
			buf_puts(b, "\\#");
		} else if (c < 0x20 || c == 0x7f)
			buf_puts(b, " ");
		else
			buf_add(b, p, 1);
	}
	if (*v && v[strlen(v) - 1] == '\\')
		buf_puts(b, "$()");
}

/* C string literal: every control character and the trigraph '?' escaped. */
static void value_h(struct buf *b, const char *v)
{
	buf_puts(b, "\"");
	for (; *v; v++) {
		unsigned char c = *v;
		if (c == '"' || c == '\\' || c == '?')
			buf_printf(b, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\%03o", c);
		else
			buf_add(b, v, 1);
	}
	buf_puts(b, "\"");
}

/* Perl single quotes: only ' and \ are special. */
static void value_perl(struct buf *b, const char *v)
{
	buf_puts(b, "'");
	for (; *v; v++) {
		if (*v == '\'' || *v == '\\')
			buf_puts(b, "\\");
		buf_add(b, v, 1);
	}
	buf_puts(b, "'");
}

/* CMake quoted argument: \ " $ ; escaped (no ${} expansion, no list
 * split), line breaks as \n. */
static void value_cmake(struct buf *b, const char *v)
{
	buf_puts(b, "\"");
	for (; *v; v++) {
		if (strchr("\\\"$;", *v))
			buf_printf(b, "\\%c", *v);
		else if (*v == '\n')
			buf_puts(b, "\\n");
		else if (*v == '\r')
			buf_puts(b, "\\r");
		else if (*v == '\t')
			buf_puts(b, "\\t");
		else
			buf_add(b, v, 1);
	}
	buf_puts(b, "\"");
}

/* How sh, make, h, perl and cmake write a variable: a comment between
 * c_open and c_close, then before NAME after VALUE end. */
static const struct var_style {
	const char *c_open, *c_close, *before, *after, *end;
	void (*value)(struct buf *b, const char *v);
} styles[] = {
	[OUT_SH] = {"# ", "\n", "", "=", "\n", value_sh},
	[OUT_MAKE] = {"# ", "\n", "", " := ", "\n", value_make},
	[OUT_H] = {"/* ", " */\n", "#define ", " ", "\n", value_h},
	[OUT_PERL] = {"    # ", "\n", "    ", " => ", ",\n", value_perl},
	[OUT_CMAKE] = {"# ", "\n", "set(", " ", ")\n", value_cmake},
};

/* The values h and cmake write their own way (booleans, h's integers and
 * assembler lines): 1 when written. */
static int var_special(struct buf *b, enum out_format f, const struct out_var *v, int boolean)
{
	const char *name = v->name, *val = v->value;
	if (f == OUT_H && v->asm_line)
		buf_printf(b, *val ? "#define %s %s\n" : "/* #undef %s */\n", name, val);
	else if (f == OUT_H && boolean)
		buf_printf(b, !strcmp(val, "yes") ? "#define %s 1\n" : "/* #undef %s */\n", name);
	else if (f == OUT_H && is_int(val))
		buf_printf(b, "#define %s %s\n", name, val);
	else if (f == OUT_CMAKE && boolean)
		buf_printf(b, "set(%s %s)\n", name, !strcmp(val, "yes") ? "ON" : "OFF");
	else
		return 0;
	return 1;
}

/* One variable with a value (and its comment) in format f. */
static void var_line(struct buf *b, enum out_format f, const struct out_var *v, int w)
{
	const char *c = v->comment;
	if (f == OUT_TEXT) {
		buf_printf(b, "%-*s  ", w, v->name);
		buf_text(b, v->value);
		if (c && *c)
			comment(b, "  (", c, ")");
		buf_puts(b, "\n");
		return;
	}
	if (f == OUT_JSON) {
		buf_json_str(b, v->name);
		buf_puts(b, ": ");
		if (is_int(v->value))
			buf_puts(b, v->value);
		else
			buf_json_str(b, v->value);
		return;
	}
	if (c && *c)
		comment(b, styles[f].c_open, c, styles[f].c_close);
	if (!var_special(b, f, v, is_bool(v->value) && !v->asm_line)) {
		buf_puts(b, styles[f].before);
		buf_puts(b, v->name);
		buf_puts(b, styles[f].after);
		styles[f].value(b, v->value);
		buf_puts(b, styles[f].end);
	}
}

/* The names of the variables without a value: each after sep (but the
 * first), padded to w, followed by each. */
static void unasked_names(struct buf *b, const struct out_var *v, size_t n, const char *sep,
                          int w, const char *each)
{
	const char *lead = "";
	for (size_t i = 0; i < n; i++)
		if (!v[i].value) {
			buf_printf(b, "%s%-*s%s", lead, w, v[i].name, each);
			lead = sep;
		}
}

/* The variables without a value, features nobody asked to probe, after
 * the others: one comment that counts them, then all of them at once.
 * Never "no": the word "unprobed" where a build reads the value (sh,
 * make, perl; cmake's "unprobed-NOTFOUND" is false to if()), nothing in
 * h (an undefined macro is false to #ifdef and #if), null in json. */
static void unasked(struct buf *b, enum out_format f, const struct out_var *v, size_t n, int w)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += !v[i].value;
	if (!k || f == OUT_JSON)
		return;
	struct buf head = {0};
	buf_printf(&head, "%zu variables not asked for (--features): unprobed, %s", k,
	           f == OUT_H ? "not defined: " : "never no");
	if (f == OUT_H)
		unasked_names(&head, v, n, " ", 0, "");
	comment(b, f == OUT_TEXT ? "(" : styles[f].c_open, head.s, f == OUT_TEXT ? ")\n" : styles[f].c_close);
	buf_free(&head);
	switch (f) {
	case OUT_SH:
		/* one a line still: Meson's keyval module reads one KEY=VALUE a line */
		unasked_names(b, v, n, "", 0, "=unprobed\n");
		break;
	case OUT_PERL:
		buf_puts(b, "    ");
		unasked_names(b, v, n, " ", 0, " => 'unprobed',");
		buf_puts(b, "\n");
		break;
	case OUT_MAKE:
		buf_puts(b, "$(foreach v,");
		unasked_names(b, v, n, " ", 0, "");
		buf_puts(b, ",$(eval $(v) := unprobed))\n");
		break;
	case OUT_CMAKE:
		/* the loop variable would stay set in the including scope */
		buf_puts(b, "foreach(_asmcap_v ");
		unasked_names(b, v, n, " ", 0, "");
		buf_puts(b, ")\n  set(${_asmcap_v} \"unprobed-NOTFOUND\")\nendforeach()\nunset(_asmcap_v)\n");
		break;
	case OUT_TEXT:
		unasked_names(b, v, n, "\n", w, "  unprobed");
		buf_puts(b, "\n");
		break;
	case OUT_H: case OUT_JSON:
		break;
	}
}

void out_vars(struct buf *b, enum out_format f, const char *who,
              const struct out_var *v, size_t n)
{
	int w = 0;
	size_t shown = 0;
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(v[i].name) > w)
			w = (int)strlen(v[i].name);
	struct buf head = {0};
	buf_printf(&head, "generated by %s: do not edit", who);
	if (f != OUT_TEXT && f != OUT_JSON)
		comment(b, f == OUT_H ? "/* " : "# ", head.s, f == OUT_H ? " */\n" : "\n");
	buf_free(&head);
	if (f == OUT_JSON)
		buf_puts(b, "{");
	if (f == OUT_PERL)
		buf_puts(b, "our %asmcap = (\n");
	for (size_t i = 0; i < n; i++) {
		/* JSON keeps every name in order, null for no value */
		if (f == OUT_JSON) {
			buf_puts(b, shown++ ? ",\n " : "\n ");
			if (!v[i].value) {
				buf_json_str(b, v[i].name);
				buf_puts(b, ": null");
				continue;
			}
		} else if (!v[i].value)
			continue;
		var_line(b, f, &v[i], w);
	}
	unasked(b, f, v, n, w);
	if (f == OUT_PERL)
		buf_puts(b, ");\n1;\n");
	if (f == OUT_JSON)
		buf_puts(b, "\n}\n");
}

int out_use_colour(int fd)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
	return isatty(fd) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
}

/* A one-line, shortened copy of a message. */
char *out_one_line(const char *s, size_t n)
{
	if (n > 300)
		n = 300;
	char *d = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n && s[i] && s[i] != '\n'; i++)
		d[k++] = s[i] == '\t' ? ' ' : s[i];
	while (k && d[k - 1] == ' ')
		k--;
	d[k] = 0;
	return d;
}

void buf_hex(struct buf *b, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_printf(b, "%s%02x", i ? " " : "", p[i]);
}
