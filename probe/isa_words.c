/* Instruction lengths of the fixed-width sets, from the architecture
 * manuals: AArch64 always 4 bytes; A32 4; Thumb 2, or 4 when the first
 * halfword's top five bits are 0b11101, 0b11110 or 0b11111 (ARM ARM
 * A6.1); RISC-V 2 unless the low two bits are 11, 4 unless the low five
 * are 11111, then 6, 8 or 10+2n bytes (unprivileged spec, 1.5). */
#include "isa_words.h"

#include <stdlib.h>
#include <string.h>

static uint32_t le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static unsigned undecoded(struct isa_insn *in, unsigned step, size_t n)
{
	in->ok = 0;
	in->len = 0;
	in->word = 0;
	return step < n ? step : (unsigned)n;
}

static unsigned decoded(struct isa_insn *in, uint32_t word, unsigned len)
{
	in->ok = 1;
	in->len = len;
	in->word = word;
	return len;
}

/* RISC-V lengths beyond 32 bits: skipped whole, so decoding stays in step. */
static unsigned rv_long_len(uint32_t hw)
{
	if ((hw & 0x3f) == 0x1f)
		return 6;
	if ((hw & 0x7f) == 0x3f)
		return 8;
	if ((hw & 0x7f) == 0x7f && (hw >> 12 & 7) != 7)
		return 10 + 2 * (hw >> 12 & 7);
	return 2;   /* reserved for >= 192 bits: no length to trust */
}

unsigned isa_decode(enum isa isa, const uint8_t *p, size_t n, struct isa_insn *in)
{
	uint32_t hw;

	switch (isa) {
	case ISA_A64:
	case ISA_A32:
		if (n < 4)
			return undecoded(in, 4, n);
		return decoded(in, le16(p) | le16(p + 2) << 16, 4);
	case ISA_T32:
		if (n < 2)
			return undecoded(in, 2, n);
		hw = le16(p);
		if (hw >> 11 < 0x1d)
			return decoded(in, hw, 2);
		if (n < 4)
			return undecoded(in, 4, n);
		return decoded(in, hw << 16 | le16(p + 2), 4);
	case ISA_RV:
		if (n < 2)
			return undecoded(in, 2, n);
		hw = le16(p);
		if (!hw)   /* defined illegal; zero padding */
			return undecoded(in, 2, n);
		if ((hw & 3) != 3)
			return decoded(in, hw, 2);
		if ((hw & 0x1f) != 0x1f)
			return n < 4 ? undecoded(in, 4, n) : decoded(in, hw | le16(p + 2) << 16, 4);
		return undecoded(in, rv_long_len(hw), n);
	case ISA_DATA:
		break;
	}
	return undecoded(in, (unsigned)(n < 4 ? n : 4), n);
}

int isa_mapping(const char *name, enum isa code, enum isa *out)
{
	int arm = code == ISA_A32 || code == ISA_T32;
	enum isa isa;

	if (name[0] != '$' || !name[1])
		return 0;
	switch (name[1]) {
	case 'd': isa = ISA_DATA; break;
	case 'x': isa = code; if (arm) return 0; break;
	case 'a': isa = ISA_A32; if (!arm) return 0; break;
	case 't': isa = ISA_T32; if (!arm) return 0; break;
	default: return 0;
	}
	/* "$x.N" / "$d.N" (numbered copies); RISC-V also "$x<ISA string>". */
	if (name[2] && name[2] != '.' && !(code == ISA_RV && name[1] == 'x' && !strncmp(name + 2, "rv", 2)))
		return 0;
	*out = isa;
	return 1;
}

static int by_off(const void *x, const void *y)
{
	const struct isa_span *a = x, *b = y;
	return a->off < b->off ? -1 : a->off > b->off;
}

long isa_spans(const struct obj *o, int si, enum isa code, struct isa_span **spans)
{
	size_t n = 1;
	struct isa_span *s = malloc((o->nsymbols + 1) * sizeof *s);

	if (!s)
		return -1;
	s[0] = (struct isa_span){ 0, code };
	for (size_t i = 0; i < o->nsymbols; i++) {
		enum isa isa;
		if (o->symbols[i].section == si && isa_mapping(o->symbols[i].name, code, &isa))
			s[n++] = (struct isa_span){ o->symbols[i].value, isa };
	}
	/* Stable for equal offsets is not needed: two mapping symbols at one
	 * offset do not occur; the default at 0 yields to a real one there. */
	qsort(s + 1, n - 1, sizeof *s, by_off);
	if (n > 1 && s[1].off == 0)
		memmove(s, s + 1, --n * sizeof *s);
	*spans = s;
	return (long)n;
}

void isa_walk(const struct isa_span *s, size_t n, const uint8_t *data, uint64_t from, uint64_t to,
              isa_visit *visit, void *ctx)
{
	size_t k = 0;

	while (from < to) {
		while (k + 1 < n && s[k + 1].off <= from)
			k++;
		uint64_t end = k + 1 < n && s[k + 1].off < to ? s[k + 1].off : to;
		if (s[k].isa == ISA_DATA) {
			from = end;
			continue;
		}
		while (from < end) {
			struct isa_insn in;
			unsigned step = isa_decode(s[k].isa, data + from, end - from, &in);
			in.isa = s[k].isa;
			visit(ctx, from, &in, step);
			from += step;
		}
	}
}

int isa_feature_uses(const struct feature *f, const struct isa_insn *in)
{
	int thumb = in->isa == ISA_T32;
	const struct cat_word *w = thumb ? f->audit_thumb_words : f->audit_words;
	size_t n = thumb ? f->naudit_thumb_words : f->naudit_words;
	if (!in->ok)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (w[i].len == in->len && (in->word & w[i].mask) == w[i].value)
			return 1;
	return 0;
}
