/* SPDX-License-Identifier: MIT */
/* AArch64: templates/aarch64, the PAC/BTI build macros, `.arch` /
 * `.arch_extension` directives that nothing can undo (so snippets that
 * carry one run alone).  The audit decoder (fixed 4-byte words), the
 * AT_HWCAP/AT_HWCAP2 reader and the prologue reader plug in here. */
#include "arch.h"
#include "hwcap.h"
#include "words.h"

static const char *const macros[] = {
	"__ARM_FEATURE_BTI_DEFAULT", "__ARM_FEATURE_PAC_DEFAULT", "__ARM_FEATURE_GCS_DEFAULT", "__ARM_ARCH", "__ARM_FEATURE_SVE",
	"__ARM_FEATURE_SVE2", "__ARM_FEATURE_SME", "__ARM_FEATURE_CRYPTO", "__ARM_FEATURE_SHA3",
	"__ARM_FEATURE_ATOMICS", "__ARM_FEATURE_CRC32", "__ARM_BIG_ENDIAN", NULL,
};

/* Bytes one instruction moves sp down (Arm ARM C4.1): LDP/STP and LDR/STR
 * (immediate) with writeback on sp, ADD/SUB (immediate) sp, sp. */
static long sp_down(uint64_t w, unsigned len, int mode)
{
	unsigned rn = w >> 5 & 31, rd = w & 31;
	(void)len;
	(void)mode;
	if (rn != 31)
		return 0;
	/* pair: bits 29:27 101, 25:23 001 (post-index) or 011 (pre-index) */
	if ((w >> 27 & 7) == 5 && ((w >> 23 & 7) == 1 || (w >> 23 & 7) == 3)) {
		unsigned opc = w >> 30, simd = w >> 26 & 1;
		long scale = simd ? 4L << opc : opc == 2 ? 8 : 4;
		return -words_sext(w >> 15 & 0x7f, 7) * scale;
	}
	/* single register: bits 29:27 111, 25:24 00, 21 0, 11:10 01 or 11 */
	if ((w >> 27 & 7) == 7 && !(w >> 24 & 3) && !(w >> 21 & 1) && (w >> 10 & 1))
		return -words_sext(w >> 12 & 0x1ff, 9);
	/* 64-bit ADD/SUB (immediate) without flags, shift 0 or 12 */
	if (rd == 31 && ((w >> 24) == 0x91 || (w >> 24) == 0xd1) && !(w >> 23 & 1)) {
		long imm = (long)(w >> 10 & 0xfff) << (w >> 22 & 1 ? 12 : 0);
		return (w >> 24) == 0xd1 ? imm : -imm;
	}
	return 0;
}

/* the ILP32 ABI, Apple's and Windows' arm64 */
static const struct arch_fact facts[] = {
	ARCH_FACT_PIC, ARCH_FACT_ILP32, ARCH_FACT_APPLE, ARCH_FACT_WIN64, {0},
};

/* GNU_PROPERTY_AARCH64_FEATURE_1_AND (AArch64 ELF ABI): branch protection */
static const char *const protection_bits[] = { "bti", "pac", "gcs", NULL };

/* ELF for the Arm 64-bit Architecture: $x code, $d data. */
static char mapping(const char *name)
{
	return words_mapping(name, "xd", "");
}

static const struct obj_rules rules = { .mapping = mapping };

const struct arch arch_aarch64 = {
	.name = "aarch64", .bits = 64,
#if defined(__aarch64__)
	.is_host = 1,
#endif
	.elf_machine = 183, .coff_machine = 0xaa64, .macho_cputype = 0x0100000c,
	/* ILP32 objects are ELF32; aarch64_be keeps instructions little-endian
	 * (Arm ARM: instruction fetches are little-endian): words_decode_le32 */
	.elf_any_class = 1, .orders = ARCH_ORDER_LE | ARCH_ORDER_BE,
	.macros = macros, .facts = facts, .scope = ARCH_SCOPE_ALONE,
	.min_insn = 4, WORDS_HOOKS(words_decode_le32, sp_down),
	.gnu_property = 0xc0000000, .gnu_property_bits = protection_bits, .obj_rules = &rules,
};
