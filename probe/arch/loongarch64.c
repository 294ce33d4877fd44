/* SPDX-License-Identifier: MIT */
/* LoongArch64: templates/loongarch64, the __loongarch_* build macros
 * (what -mlsx/-mlasx/-march enable).  The catalog's snippets carry no
 * directive: LLVM's LoongArch assembler takes every LSX, LASX, LBT and
 * LVZ instruction whatever -march says, and has no directive that gates
 * one.  The audit decoder (fixed 4-byte little-endian words), the
 * AT_HWCAP reader and the prologue reader plug in here. */
#include "arch.h"
#include "hwcap.h"
#include "words.h"

static const char *const macros[] = {
	"__loongarch_grlen", "__loongarch_frlen", "__loongarch_lp64", "__loongarch_double_float",
	"__loongarch_simd_width", "__loongarch_frecipe",
	"__loongarch_lam_bh", "__loongarch_lamcas", "__loongarch_scq", NULL,
};

/* The build's flags are the one answer that differs (the assembler takes
 * LSX and LASX code under any -march): -mlsx/-mlasx, or an -march that
 * has them, define these. */
static const struct arch_fact facts[] = {
	ARCH_FACT_PIC,
	{"lsx", "__loongarch_sx", ARCH_FACT_DEFINED, 0, NULL, "LSX", NULL},
	{"lasx", "__loongarch_asx", ARCH_FACT_DEFINED, 0, NULL, "LASX", NULL},
	{0},
};

/* Bytes one instruction moves sp ($r3) down: addi.d $sp, $sp, si12
 * (opcode 0000001011, si12 in bits 21:10, rj 9:5, rd 4:0).  Frames past
 * 2 KiB are set up through a register (lu12i.w/ori, sub.d), which this
 * reader, like the other fixed-width ones, does not follow. */
static long sp_down(uint64_t w, unsigned len, int mode)
{
	(void)len;
	(void)mode;
	return (w & 0xffc003ff) == 0x02c00063 ? -words_sext(w >> 10 & 0xfff, 12) : 0;
}

const struct arch arch_loongarch64 = {
	.name = "loongarch64", .bits = 64,
#if defined(__loongarch64)
	.is_host = 1,
#endif
	/* EM_LOONGARCH (its ELF32 objects are loongarch32's); every instruction
	 * one little-endian 32-bit word (LoongArch Reference Manual vol. 1,
	 * 1.2): words_decode_le32 */
	.elf_machine = 258, .orders = ARCH_ORDER_LE,
	.macros = macros, .facts = facts, .scope = ARCH_SCOPE_NONE,
	.min_insn = 4, WORDS_HOOKS(words_decode_le32, sp_down),
};
