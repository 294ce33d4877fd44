/* SPDX-License-Identifier: MIT */
/* Output writers.  Every subcommand that emits variables for a build
 * (probe: ASMCAP_ADX, cc-flag: ASMCAP_CFLAG_*, choose: ASMCAP_CHOICE_*)
 * builds a list of out_var and hands it to out_vars(): one writer for
 * sh, make, h, perl, cmake and json; file_replace() (file.h) writes it. */
#ifndef ASMCAP_OUT_H
#define ASMCAP_OUT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* A growable string. */
struct buf { char *s; size_t n, cap; };
void buf_add(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_json_str(struct buf *b, const char *s);   /* "..." with JSON escapes; NULL -> null */
void buf_json_strs(struct buf *b, char *const *v, size_t n);   /* [v[0], ...] */
/* Object members written in order, each as lead "key": value (buf_json_str):
 * lead is the separator before it (", ", ",\n  "). */
struct json_member { const char *lead, *key, *value; };
void buf_json_members(struct buf *b, const struct json_member *m, size_t n);
/* Text for people, one line: control characters shown as \n, \t, \xNN. */
void buf_text(struct buf *b, const char *s);
/* The words v[0..n) with buf_text, each after a space but the first after `first`. */
void buf_text_words(struct buf *b, char *const *v, size_t n, const char *first);
void buf_free(struct buf *b);
/* p[0..n) as hex bytes, "0f 38 f6". */
void buf_hex(struct buf *b, const uint8_t *p, size_t n);
/* A one-line copy of s[0..n) (to its first newline, tabs as spaces, 300
 * characters at most, trailing blanks dropped; malloc'd). */
char *out_one_line(const char *s, size_t n);

enum out_format { OUT_TEXT, OUT_JSON, OUT_SH, OUT_MAKE, OUT_H, OUT_PERL, OUT_CMAKE };
/* "text", "json", ... -> 0, or -1 for an unknown name. */
int out_format_parse(const char *name, enum out_format *f);
#define OUT_FORMAT_NAMES "text|json|sh|make|h|perl|cmake"
const char *out_format_names(void);   /* OUT_FORMAT_NAMES */

/* One build variable.  value "yes"/"no" is a boolean (h: #define 1 /
 * #undef; cmake: ON/OFF; sh/make/perl/json: the word); anything else is a
 * string (a decimal integer stays bare in h and json); NULL is "unprobed"
 * (never false-as-no: h has no #define, cmake "unprobed-NOTFOUND", json
 * null, the others the word unprobed).  comment may be
 * NULL; it is written next to the variable where the format has comments. */
/* asm_line: h writes the value as it is, a line an assembler source can
 * use (`#define NAME .arch_extension crc'), or #undef when it is empty. */
struct out_var { const char *name, *value, *comment; int asm_line; };

/* Append the variables in format f (OUT_TEXT: an aligned "NAME  value"
 * table).  `who` names the generator in the header comment, e.g.
 * "asmcap probe --cc gcc". */
void out_vars(struct buf *b, enum out_format f, const char *who,
              const struct out_var *v, size_t n);

/* Variable name from a prefix and a feature/flag: "ASMCAP_" + "avx512-ifma"
 * -> "ASMCAP_AVX512_IFMA" (upper case, non-alphanumerics become '_'). */
char *out_var_name(const char *prefix, const char *word);

/* Whether to colour text on this stream: a TTY, NO_COLOR unset or empty,
 * and TERM not "dumb" (a terminal that shows escapes as text). */
int out_use_colour(int fd);

#endif
