/* SPDX-License-Identifier: MIT */
/* What the fixed-width architectures (AArch64, ARM A32/Thumb, RISC-V)
 * share: the code spans mapping symbols mark ($x $a $t $d), walking them
 * with a module's decoder, matching a decoded word against a feature's
 * MASK VALUE audit words, and reading a frame from sp arithmetic. */
#ifndef ASMCAP_WORDS_H
#define ASMCAP_WORDS_H

#include "arch.h"
#include "hwcap.h"

/* The words dialect's catalog keys (CAT_WORDS; arch_catalog_keys), and
 * what they hold for one feature.  One "MASK VALUE" audit pattern of a
 * fixed-width ISA is written as the manual writes the instruction
 * (Thumb-2 32-bit: first halfword in the high 16 bits); "# hwcap:
 * AT_HWCAP bit=N" / "# hwcap2: AT_HWCAP2 bit=N" is one bit of the kernel's
 * words; "# hwprobe: key=K bit=N" a riscv_hwprobe(2) key and a bit of its
 * value. */
struct cat_word { uint64_t mask, value; unsigned char len; /* bytes: 2, 4 or 6 */ };
struct cat_hwcap { unsigned char reg; /* 0 none, 1 AT_HWCAP, 2 AT_HWCAP2 */ unsigned char bit; };
struct cat_hwprobe { int key; /* -1: none */ unsigned bit; };
struct words_feature {
	struct cat_word *audit; size_t naudit;  /* "# audit:" (arm: the A32 ones) */
	struct cat_hwcap hwcap;
	struct cat_hwprobe hwprobe;
};
extern const struct cat_keys words_keys;
/* What f's words keys hold (an empty one for a feature of another dialect). */
const struct words_feature *words_of(const struct feature *f);
/* "MASK VALUE ; MASK VALUE ..." hex, width from the digit count (4, 8 or 12),
 * appended to *out (the key may repeat); 0, or -1 with why for `key'
 * (an empty list is an error).  Also arm's `audit-thumb:'. */
int words_parse_audit(const char *key, const char *v, struct cat_word **out, size_t *n, char *why,
                      size_t whylen);
/* Does one of w[0..n) match in (of the same length)? */
int words_any(const struct cat_word *w, size_t n, const struct arch_insn *in);

/* From `off` on (to the next span) the section holds code decoded in
 * `mode` (0, ARCH_MODE_THUMB), or data (WORDS_DATA). */
#define WORDS_DATA (-1)
struct code_span { uint64_t off; int mode; };

/* The spans of section si from its mapping symbols, in order; code before
 * the first one is in `mode`.  The count (>= 1) with *spans to free.  A
 * section without mapping symbols is one span.  which[0..n) are the
 * symbols to look at (a caller that has them per section says so); which
 * NULL: all of them. */
size_t words_code_spans(const struct obj *o, const size_t *which, size_t n, int si, int mode,
                  struct code_span **spans);

/* Decode data[from..to) with a->decode as the spans say, skipping data
 * spans; the span holding `from' is found by bisection, so many walks over
 * parts of one section cost their bytes, not its spans.  visit sees every
 * instruction (in->mode set), and every undecodable stretch with in NULL
 * and its length in step. */
typedef void code_visit(void *ctx, uint64_t off, const struct arch_insn *in, unsigned step);
void words_code_walk(const struct arch *a, const struct code_span *s, size_t n, const uint8_t *data,
               uint64_t from, uint64_t to, code_visit *visit, void *ctx);

/* arch.decode of the modules whose every instruction is one 32-bit word
 * stored little-endian (AArch64, in big-endian objects too; LoongArch). */
unsigned words_decode_le32(const uint8_t *p, size_t n, int mode, struct arch_insn *in);

/* arch.audit_match of the fixed-width modules: in is one of f's `audit:`
 * words, of the same length. */
int words_match(const struct feature *f, const void *pats, const struct arch_insn *in,
                const uint8_t *bytes);

/* arch.prologue_frame of the fixed-width modules: the frame of
 * code[0..len) in mode is the deepest sp goes below its entry value,
 * summing a->sp_down over the instructions in address order (so an early
 * return before a shrink-wrapped prologue, or an epilogue in the middle,
 * hides nothing).  -1 when nothing decodes. */
long words_frame(const struct arch *a, const uint8_t *code, size_t len, int mode);

/* The struct arch hooks every fixed-width module fills alike: the catalog's
 * MASK VALUE words, its decoder
 * and sp_down, the shared audit matcher and frame reader, and the CPU read
 * from the kernel's hwcaps (hwcap.h). */
#define WORDS_HOOKS(decoder, down) WORDS_HOOKS_MATCH(decoder, down, words_match)
/* The same without the CPU reader, for a module that has its own. */
#define WORDS_CODE_HOOKS(decoder, down) WORDS_CODE_HOOKS_MATCH(decoder, down, words_match)
/* Both with an audit matcher of the module's own (arm's Thumb words). */
#define WORDS_HOOKS_MATCH(decoder, down, match) \
	WORDS_CODE_HOOKS_MATCH(decoder, down, match), .cpu_runs = hwcap_cpu_runs, .cpu_state = hwcap_cpu_state
#define WORDS_CODE_HOOKS_MATCH(decoder, down, match) \
	.dialect = CAT_WORDS, .decode = (decoder), .audit_match = (match), .prologue_frame = words_frame, \
	.sp_down = (down)

/* A mapping symbol's name ("$x", "$d.42"): its letter when that is one of
 * `letters' and the name ends there or a `.' suffix follows (or anything
 * does, for a letter in `suffixed': RISC-V's "$xrv64i2p1..." ISA string),
 * else 0.  The obj_rules.mapping of the fixed-width modules. */
char words_mapping(const char *name, const char *letters, const char *suffixed);

/* Sign-extend the low `bits` of v. */
long words_sext(uint32_t v, unsigned bits);

#endif
