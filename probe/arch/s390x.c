/* SPDX-License-Identifier: MIT */
/* s390x (z/Architecture): templates/s390x, big-endian objects, the
 * __ARCH__/__VX__/__HTM__ build macros (the level and facilities -march
 * enables; -mzvector's __VEC__ is C-only, absent when assembling).
 * `.machine' enables instructions and clang-19/22 have no `.machine
 * push'/`pop' (they warn "not a recognized processor"), so snippets that
 * carry one run alone.  The audit decoder (2-, 4- and 6-byte
 * instructions), the AT_HWCAP reader and the prologue reader plug in
 * here. */
#include "arch.h"
#include "hwcap.h"
#include "words.h"

static const char *const macros[] = {
	"__ARCH__", "__VX__", "__HTM__", NULL,
};

static const struct arch_fact facts[] = { ARCH_FACT_PIC, {0} };

/* The length is in the first opcode byte's top two bits: 00 two bytes,
 * 01 and 10 four, 11 six (Principles of Operation, "Instruction
 * Formats"); the word is the instruction big-endian, as the manual writes
 * it.  Opcode 00 is not an instruction (zero padding). */
static unsigned decode(const uint8_t *p, size_t n, int mode, struct arch_insn *in)
{
	(void)mode;
	if (n < 2 || !p[0])
		return 0;
	unsigned len = p[0] < 0x40 ? 2 : p[0] < 0xc0 ? 4 : 6;
	if (len > n)
		return 0;
	in->len = len;
	in->word = 0;
	for (unsigned i = 0; i < len; i++)
		in->word = in->word << 8 | p[i];
	return len;
}

/* Bytes one instruction moves %r15 down (the ELF ABI's stack pointer):
 * AGHI and AGFI %r15 (immediate), LAY and LA %r15,D(%r15) without an
 * index.  STMG saves into the caller's register save area and moves
 * nothing. */
static long sp_down(uint64_t w, unsigned len, int mode)
{
	(void)mode;
	if (len == 4 && (w >> 16) == 0xa7fb)                    /* aghi %r15,I16 */
		return -words_sext((uint32_t)(w & 0xffff), 16);
	if (len == 4 && (w >> 12) == 0x41f0f)                   /* la %r15,D12(%r15) */
		return -(long)(w & 0xfff);
	if (len == 6 && (w >> 32) == 0xc2f8)                    /* agfi %r15,I32 */
		return -words_sext((uint32_t)(w & 0xffffffff), 32);
	if (len == 6 && (w >> 28) == 0xe3f0f && (w & 0xff) == 0x71) {   /* lay %r15,D20(%r15) */
		uint32_t dl = (uint32_t)(w >> 16 & 0xfff), dh = (uint32_t)(w >> 8 & 0xff);
		return -words_sext(dh << 12 | dl, 20);
	}
	return 0;
}

const struct arch arch_s390x = {
	.name = "s390x", .bits = 64,
#if defined(__s390x__)
	.is_host = 1,
#endif
	.elf_machine = 22, .orders = ARCH_ORDER_BE,
	.macros = macros, .facts = facts, .scope = ARCH_SCOPE_ALONE,
	.min_insn = 2, WORDS_HOOKS(decode, sp_down),
};
