/* SPDX-License-Identifier: MIT */
/* Mapping symbols (AArch64/ARM ELF ABIs, RISC-V psABI) mark where code in
 * one instruction set, or data, starts; everything between two of them is
 * one span.  And the words dialect's catalog keys (MASK VALUE audit
 * words, hwcap:, hwprobe:). */
#include "words.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_off(const void *x, const void *y)
{
	const struct code_span *a = x, *b = y;
	return a->off < b->off ? -1 : a->off > b->off;
}

size_t words_code_spans(const struct obj *o, const size_t *which, size_t nwhich, int si, int mode,
                  struct code_span **spans)
{
	size_t n = 1, count = which ? nwhich : o->nsymbols;
	struct code_span *s = xmalloc((count + 1) * sizeof *s);
	s[0] = (struct code_span){ 0, mode };
	for (size_t i = 0; i < count; i++) {
		const struct obj_symbol *m = &o->symbols[which ? which[i] : i];
		if (m->section == si && m->mapping)
			s[n++] = (struct code_span){ m->value, m->mapping == 'd' ? WORDS_DATA
			                                       : m->mapping == 't' ? ARCH_MODE_THUMB : 0 };
	}
	qsort(s + 1, n - 1, sizeof *s, by_off);
	if (n > 1 && s[1].off == 0)     /* a mapping symbol at 0 replaces the default */
		memmove(s, s + 1, --n * sizeof *s);
	*spans = s;
	return n;
}

void words_code_walk(const struct arch *a, const struct code_span *s, size_t n, const uint8_t *data,
               uint64_t from, uint64_t to, code_visit *visit, void *ctx)
{
	size_t k = 0, hi = n;   /* s[0].off is 0: the span holding from is in [k, hi) */
	while (k + 1 < hi) {
		size_t mid = k + (hi - k) / 2;
		if (s[mid].off <= from)
			k = mid;
		else
			hi = mid;
	}
	while (from < to) {
		while (k + 1 < n && s[k + 1].off <= from)
			k++;
		uint64_t end = k + 1 < n && s[k + 1].off < to ? s[k + 1].off : to;
		if (s[k].mode == WORDS_DATA) {
			from = end;
			continue;
		}
		while (from < end) {
			struct arch_insn in;
			memset(&in, 0, sizeof in);
			unsigned len = a->decode(data + from, end - from, s[k].mode, &in);
			if (!len || !in.len) {
				len = len ? len : end - from < a->min_insn ? (unsigned)(end - from) : a->min_insn;
				visit(ctx, from, NULL, len);
			} else {
				in.mode = s[k].mode;
				visit(ctx, from, &in, len);
			}
			from += len;
		}
	}
}

/* "AT_HWCAP bit=N" (want = "AT_HWCAP") or "AT_HWCAP2 bit=N". */
static int parse_hwcap(const char *v, const char *want, unsigned char reg, struct cat_hwcap *h)
{
	size_t n = strlen(want);
	if (strncmp(v, want, n) || (v[n] != ' ' && v[n] != '\t'))
		return -1;
	v += n;
	while (*v == ' ' || *v == '\t')
		v++;
	if (strncmp(v, "bit=", 4) || v[4] < '0' || v[4] > '9')
		return -1;
	char *end;
	unsigned long bit = strtoul(v + 4, &end, 10);
	if (*end || bit > 63)
		return -1;
	h->reg = reg;
	h->bit = (unsigned char)bit;
	return 0;
}

/* "key=K bit=N": the riscv_hwprobe(2) key and a bit of its 64-bit value. */
static int parse_hwprobe(const char *v, struct cat_hwprobe *h)
{
	char *end;
	if (strncmp(v, "key=", 4) || v[4] < '0' || v[4] > '9')
		return -1;
	unsigned long key = strtoul(v + 4, &end, 10);
	if (key > 0x7fffffff || (*end != ' ' && *end != '\t'))
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	if (strncmp(end, "bit=", 4) || end[4] < '0' || end[4] > '9')
		return -1;
	unsigned long bit = strtoul(end + 4, &end, 10);
	if (*end || bit > 63)
		return -1;
	h->key = (int)key;
	h->bit = (unsigned)bit;
	return 0;
}

/* One hex word of exactly 4, 8 or 12 digits (a 2-, 4- or 6-byte
 * instruction: s390x has all three); its digit count, or 0. */
static unsigned hex_word(const char *s, uint64_t *out)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");
	if (s[n] || (n != 4 && n != 8 && n != 12))
		return 0;
	*out = (uint64_t)strtoull(s, NULL, 16);
	return (unsigned)n;
}

int words_parse_audit(const char *key, const char *v, struct cat_word **out, size_t *n, char *why,
                      size_t whylen)
{
	char *copy = xstrdup(v), *pats, *toks;
	size_t before = *n;
	int r = 0;
	for (char *pat = strtok_r(copy, ";", &pats); pat && !r; pat = strtok_r(NULL, ";", &pats)) {
		char *a = strtok_r(pat, " \t", &toks), *b = a ? strtok_r(NULL, " \t", &toks) : NULL;
		uint64_t mask = 0, value = 0;
		unsigned dm = a ? hex_word(a, &mask) : 0, dv = b ? hex_word(b, &value) : 0;
		if (!dm || dm != dv || strtok_r(NULL, " \t", &toks) || !mask || (value & ~mask)) {
			r = -1;
			break;
		}
		*out = xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = (struct cat_word){mask, value, (unsigned char)(dm / 2)};
	}
	free(copy);
	if (!r && *n > before)
		return 0;
	snprintf(why, whylen, "bad %s `%s' (want `MASK VALUE ; ...' in hex, 4, 8 or 12 digits each, VALUE inside MASK)",
	         key, v);
	return -1;
}

static int set_audit(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	struct words_feature *d = data;
	(void)f;
	return words_parse_audit(key, v, &d->audit, &d->naudit, why, whylen);
}

/* hwcap: and hwcap2: share the one bit a feature may name. */
static int set_hwcap(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	struct words_feature *d = data;
	int two = key[5] == '2';
	const char *want = two ? "AT_HWCAP2" : "AT_HWCAP";
	(void)f;
	if (d->hwcap.reg)
		snprintf(why, whylen, "a second hwcap line (one bit per feature)");
	else if (parse_hwcap(v, want, two ? 2 : 1, &d->hwcap))
		snprintf(why, whylen, "bad %s `%s' (want `%s bit=N', N < 64)", key, v, want);
	else
		return 0;
	return -1;
}

static int set_hwprobe(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen)
{
	struct words_feature *d = data;
	(void)f;
	(void)key;
	if (!parse_hwprobe(v, &d->hwprobe))
		return 0;
	snprintf(why, whylen, "bad hwprobe `%s' (want one `key=K bit=N', N < 64)", v);
	return -1;
}

static void words_init(void *data)
{
	((struct words_feature *)data)->hwprobe.key = -1;
}

static void words_free(void *data)
{
	free(((struct words_feature *)data)->audit);
}

static int words_cpu_checks(const void *data)
{
	const struct words_feature *d = data;
	return d->hwcap.reg || d->hwprobe.key >= 0;
}

static const struct cat_key keys[] = {
	{"audit", 1, set_audit}, {"hwcap", 0, set_hwcap}, {"hwcap2", 0, set_hwcap},
	{"hwprobe", 0, set_hwprobe}, {NULL, 0, NULL},
};
const struct cat_keys words_keys = {
	keys, sizeof(struct words_feature), words_init, words_free, words_cpu_checks,
};

const struct words_feature *words_of(const struct feature *f)
{
	static const struct words_feature none = {.hwprobe = {.key = -1}};
	const struct words_feature *d = arch_keyed(f, &words_keys);
	return d ? d : &none;
}

unsigned words_decode_le32(const uint8_t *p, size_t n, int mode, struct arch_insn *in)
{
	(void)mode;
	if (n < 4)
		return 0;
	in->len = 4;
	in->word = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return 4;
}

int words_any(const struct cat_word *w, size_t n, const struct arch_insn *in)
{
	for (size_t i = 0; i < n; i++)
		if (w[i].len == in->len && (in->word & w[i].mask) == w[i].value)
			return 1;
	return 0;
}

int words_match(const struct feature *f, const void *pats, const struct arch_insn *in,
                const uint8_t *bytes)
{
	const struct words_feature *d = words_of(f);
	(void)pats;
	(void)bytes;
	return words_any(d->audit, d->naudit, in);
}

char words_mapping(const char *name, const char *letters, const char *suffixed)
{
	if (name[0] != '$' || !name[1] || !strchr(letters, name[1]))
		return 0;
	return !name[2] || name[2] == '.' || strchr(suffixed, name[1]) ? name[1] : 0;
}

long words_sext(uint32_t v, unsigned bits)
{
	return (long)((int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits));
}

long words_frame(const struct arch *a, const uint8_t *code, size_t len, int mode)
{
	long now = 0, max = 0;
	size_t decoded = 0;
	for (size_t off = 0; off < len;) {
		struct arch_insn in;
		memset(&in, 0, sizeof in);
		unsigned n = a->decode(code + off, len - off, mode, &in);
		if (!n || !in.len) {
			off += n ? n : len - off < a->min_insn ? len - off : a->min_insn;
			continue;
		}
		decoded++;
		now += a->sp_down(in.word, in.len, mode);
		if (now > max)
			max = now;
		off += n;
	}
	return decoded ? max : -1;
}
