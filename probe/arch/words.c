/* SPDX-License-Identifier: MIT */
/* Mapping symbols (AArch64/ARM ELF ABIs, RISC-V psABI) mark where code in
 * one instruction set, or data, starts; everything between two of them is
 * one span. */
#include "words.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static int by_off(const void *x, const void *y)
{
	const struct code_span *a = x, *b = y;
	return a->off < b->off ? -1 : a->off > b->off;
}

size_t code_spans(const struct obj *o, const size_t *which, size_t nwhich, int si, int mode,
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

void code_walk(const struct arch *a, const struct code_span *s, size_t n, const uint8_t *data,
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

int words_match(const struct feature *f, const void *pats, const struct arch_insn *in,
                const uint8_t *bytes)
{
	int thumb = in->mode == ARCH_MODE_THUMB;
	const struct cat_word *w = thumb ? f->audit_thumb_words : f->audit_words;
	size_t n = thumb ? f->naudit_thumb_words : f->naudit_words;
	(void)pats;
	(void)bytes;
	for (size_t i = 0; i < n; i++)
		if (w[i].len == in->len && (in->word & w[i].mask) == w[i].value)
			return 1;
	return 0;
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
