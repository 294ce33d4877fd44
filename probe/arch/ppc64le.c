/* SPDX-License-Identifier: MIT */
/* 64-bit Power: templates/ppc64le, the _ARCH_PWR*
 * and vector build macros, snippets scoped by `.machine push` / `.machine
 * pop` so the `.machine powerN' inside one cannot reach another (GNU as
 * honours both; clang accepts them and every instruction whatever the
 * level).  The audit decoder (4-byte words; Power ISA 3.1's 8-byte
 * prefixed instructions), the alignment nops assemblers put before those,
 * the AT_HWCAP/AT_HWCAP2 reader (with the cache block size) and the
 * prologue reader plug in here.
 * Big-endian objects (ppc64, ELFv1 or v2) are this module's too, named
 * ppc64: the reader turns each word of their code little-endian
 * (code_unit), so the decoder, the prologue reader and the catalog's
 * `expect:' bytes, written as ppc64le objects hold them, serve both. */
#include "arch.h"
#include "hwcap.h"
#include "words.h"

#include <stdio.h>

#ifdef __linux__
#include <sys/auxv.h>
#endif

static const char *const macros[] = {
	"_ARCH_PWR7", "_ARCH_PWR8", "_ARCH_PWR9", "_ARCH_PWR10", "__ALTIVEC__", "__VSX__",
	"__POWER8_VECTOR__", "__POWER9_VECTOR__", "__CRYPTO__", "__MMA__", "_CALL_ELF", NULL,
};

static const struct arch_fact facts[] = { ARCH_FACT_PIC, {0} };

/* One little-endian word (big-endian code too, code_unit); primary
 * opcode 1 is a prefix (Power ISA 3.1 1.6.3), whose instruction is 8
 * bytes: its word is the prefix.  The
 * all-zero word is no instruction (Book I 1.8.1: guaranteed illegal): the
 * padding and traceback tables after a function. */
static unsigned decode(const uint8_t *p, size_t n, int mode, struct arch_insn *in)
{
	(void)mode;
	if (n < 4)
		return 0;
	in->word = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	if (!in->word)
		return 0;
	in->len = 4;
	if (in->word >> 26 != 1)
		return 4;
	return n < 8 ? 0 : 8;
}

/* Bytes one instruction moves r1 down: stdu r1,D(r1) (DS-form, opcode 62
 * XO 1) and addi r1,r1,SI (the epilogue's way back up).  stdux r1,r1,rX
 * (frames past 32 KiB) takes its size from a register and is not read. */
static long sp_down(uint64_t w, unsigned len, int mode)
{
	(void)len;
	(void)mode;
	if ((w & 0xffff0003) == 0xf8210001)
		return -words_sext(w & 0xfffc, 16);
	if ((w & 0xffff0000) == 0x38210000)
		return -words_sext(w & 0xffff, 16);
	return 0;
}

/* GNU as and clang keep a prefixed instruction from crossing a 64-byte
 * boundary with nops (ori 0,0,0) before it: one of those, when only nops
 * lie between it and a prefix. */
static unsigned inserted(const uint8_t *p, size_t n, int bits, const char **what)
{
	struct arch_insn in;
	(void)bits;
	for (size_t off = 0; decode(p + off, n - off, 0, &in); off += 4) {
		if (in.word >> 26 == 1 && off) {
			*what = "nop keeping a prefixed instruction within 64 bytes";
			return 4;
		}
		if (in.word != 0x60000000)
			return 0;
	}
	return 0;
}

/* The hwcap words, and the cache block the kernel reports (AT_DCACHEBSIZE):
 * the bytes dcbz clears, which FFmpeg measures before it uses dcbzl's
 * 128-byte form.  0 when the kernel does not say. */
static size_t ppc_cpu_state(struct arch_cpu_state *st)
{
	size_t k = hwcap_cpu_state(st);
	unsigned long block = 0;
	if (!k)
		return 0;
#if defined(__linux__) && defined(AT_DCACHEBSIZE)
	block = getauxval(AT_DCACHEBSIZE);
#endif
	st[k] = (struct arch_cpu_state){ "ASMCAP_CPU_DCACHE_BLOCK", "", "getauxval(AT_DCACHEBSIZE): the bytes dcbz clears" };
	snprintf(st[k++].value, sizeof st->value, "%lu", block);
	return k;
}

/* The words of a big-endian object's code are reversed (4-byte units,
 * prefixed instructions' two words each), mapping symbols or not: Power
 * has none. */
static unsigned code_unit(const struct obj *o, uint32_t e_flags, char m)
{
	(void)e_flags;
	(void)m;
	return o->big_endian ? 4 : 0;
}

static const struct obj_rules rules = { .code_unit = code_unit };

const struct arch arch_ppc64le = {
	.name = "ppc64le", .be_name = "ppc64", .bits = 64,
#if defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
	.is_host = 1,
#endif
	.elf_machine = 21, .orders = ARCH_ORDER_LE | ARCH_ORDER_BE, .obj_rules = &rules,
	.macros = macros, .facts = facts, .scope = ARCH_SCOPE_PUSHPOP,
	.scope_open = "\t.machine push\n", .scope_close = "\t.machine pop\n",
	.min_insn = 4, WORDS_CODE_HOOKS(decode, sp_down), .inserted = inserted,
	.cpu_runs = hwcap_cpu_runs, .cpu_state = ppc_cpu_state,
};
