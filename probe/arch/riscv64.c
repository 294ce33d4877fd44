/* SPDX-License-Identifier: MIT */
/* RV64: templates/riscv64, the __riscv_* build macros (what -march
 * enables), snippets scoped by `.option push` / `.option pop` so the
 * `.option arch, +X` inside one cannot reach another.  The audit decoder
 * (16/32-bit lengths), the AT_HWCAP/hwprobe reader and the prologue
 * reader plug in here. */
#include "arch.h"
#include "hwcap.h"
#include "words.h"

static const char *const macros[] = {
	"__riscv_xlen", "__riscv_flen", "__riscv_compressed", "__riscv_vector", "__riscv_v",
	"__riscv_zba", "__riscv_zbb", "__riscv_zbc", "__riscv_zbs", "__riscv_zbkb", "__riscv_zbkc",
	"__riscv_zbkx", "__riscv_zknd", "__riscv_zkne", "__riscv_zknh", "__riscv_zicond",
	"__riscv_zvbb", "__riscv_zvbc", "__riscv_zvkned", "__riscv_zvknhb", "__riscv_zacas", NULL,
};

static const struct arch_fact facts[] = { ARCH_FACT_PIC, {0} };

/* 16-bit unless the low two bits are 11, else 32-bit unless the low five
 * are 11111 (unprivileged spec 1.5): the 48- and 64-bit formats are
 * skipped whole; longer ones, and the all-zero halfword (defined illegal;
 * padding), do not decode. */
static unsigned decode(const uint8_t *p, size_t n, int mode, struct arch_insn *in)
{
	(void)mode;
	if (n < 2)
		return 0;
	uint32_t hw = (uint32_t)p[0] | (uint32_t)p[1] << 8;
	if (!hw)
		return 0;
	if ((hw & 0x1f) == 0x1f) {      /* 48 bits: xx011111; 64 bits: x0111111 */
		unsigned len = (hw & 0x3f) == 0x1f ? 6 : (hw & 0x7f) == 0x3f ? 8 : 0;
		in->len = 0;
		return len <= n ? len : 0;
	}
	in->len = (hw & 3) == 3 ? 4 : 2;
	if (in->len > n)
		return 0;
	in->word = in->len == 2 ? hw : hw | ((uint32_t)p[2] | (uint32_t)p[3] << 8) << 16;
	return in->len;
}

/* Bytes one instruction moves sp down: addi sp, sp, imm; c.addi16sp;
 * c.addi sp. */
static long sp_down(uint32_t w, unsigned len, int mode)
{
	(void)mode;
	if (len == 4)
		return (w & 0xfffff) == 0x10113 ? -words_sext(w >> 20, 12) : 0;
	if ((w & 0xef83) == 0x6101)
		return -words_sext((w >> 12 & 1) << 9 | (w >> 6 & 1) << 4 | (w >> 5 & 1) << 6 |
		                   (w >> 3 & 3) << 7 | (w >> 2 & 1) << 5, 10);
	if ((w & 0xef83) == 0x0101)
		return -words_sext((w >> 12 & 1) << 5 | (w >> 2 & 0x1f), 6);
	return 0;
}

const struct arch arch_riscv64 = {
	.name = "riscv64", .bits = 64,
#if defined(__riscv) && __riscv_xlen == 64
	.is_host = 1,
#endif
	.elf_machine = 243, .orders = ARCH_ORDER_LE,
	.macros = macros, .facts = facts, .scope = ARCH_SCOPE_PUSHPOP,
	.scope_open = "\t.option push\n", .scope_close = "\t.option pop\n",
	.min_insn = 2, WORDS_HOOKS(decode, sp_down),
};
