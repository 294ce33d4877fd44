/* Fixed-width instruction sets (AArch64, ARM A32 and Thumb, RISC-V): where
 * each instruction starts, how long it is and its bits, and which set a
 * mapping symbol ($x $a $t $d) switches to.  Audit matches these words
 * against a feature's MASK VALUE patterns; frame reads prologues with them. */
#ifndef ASMCAP_ISA_WORDS_H
#define ASMCAP_ISA_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "obj.h"

enum isa { ISA_DATA, ISA_A64, ISA_A32, ISA_T32, ISA_RV };

struct isa_insn {
	enum isa isa;
	uint32_t word;   /* Thumb 32-bit: first halfword in the high 16 bits, as
	                  * the manuals write it; 16-bit forms in the low 16 */
	unsigned len;    /* bytes: 2 or 4 when ok */
	int ok;          /* 0: not a decodable instruction (truncated, a RISC-V
	                  * format longer than 32 bits, the all-zero halfword) */
};

/* The instruction at p[0..n), n > 0.  Returns how many bytes to step over
 * (1..n): the instruction's length when ok, else the best resync. */
unsigned isa_decode(enum isa isa, const uint8_t *p, size_t n, struct isa_insn *in);

/* The set the mapping symbol `name` selects ("$d", "$x.12", "$t",
 * RISC-V's "$xrv64i2p1_m2p0"), given `code`, the set of this
 * architecture's code (ISA_A64, ISA_RV, or ISA_A32/ISA_T32 for ARM).
 * 1 and *out when it is one, 0 when it is an ordinary symbol. */
int isa_mapping(const char *name, enum isa code, enum isa *out);

/* Is in one of f's instructions (its `audit:` MASK VALUE words; Thumb
 * code: its `audit-thumb:` words)?  The length must match too. */
int isa_feature_uses(const struct feature *f, const struct isa_insn *in);

/* From `off` on (to the next span) the section holds `isa`. */
struct isa_span { uint64_t off; enum isa isa; };

/* The spans of section si from its mapping symbols, in order; code before
 * the first one is `code`.  The count (>= 1) with *spans to free, or -1 when
 * out of memory. */
long isa_spans(const struct obj *o, int si, enum isa code, struct isa_span **spans);

/* Decode data[from..to) as the spans say, skipping data spans; visit sees
 * every instruction and every undecodable stretch (in->ok 0, step bytes)
 * with its offset. */
typedef void isa_visit(void *ctx, uint64_t off, const struct isa_insn *in, unsigned step);
void isa_walk(const struct isa_span *s, size_t n, const uint8_t *data, uint64_t from, uint64_t to,
              isa_visit *visit, void *ctx);

#endif
