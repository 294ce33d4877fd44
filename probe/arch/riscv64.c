/* SPDX-License-Identifier: MIT */
/* RV64: templates/riscv64, the __riscv_* build macros (what -march
 * enables), snippets scoped by `.option push` / `.option pop` so the
 * `.option arch, +X` inside one cannot reach another.  The audit decoder
 * (16/32-bit lengths), the AT_HWCAP/hwprobe reader and the prologue
 * reader plug in here. */
#include "arch.h"
#include "hwcap.h"
#include "words.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/syscall.h>
#endif

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
static long sp_down(uint64_t w, unsigned len, int mode)
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

/* riscv_hwprobe(2) (Linux 6.4+) for the keys s asks; its number is the
 * generic syscall table's, which older libc headers may not name.  Only
 * the riscv64 host's reader runs it (another machine's 258 is another
 * call). */
static int hwprobe(struct hw_state *s)
{
#if defined(__linux__) && defined(__riscv)
	return syscall(258, s->keys, s->nkeys, 0, NULL, 0) ? -errno : 0;
#else
	(void)s;
	return -ENOSYS;
#endif
}

static int rv_cpu_runs(const struct feature *f, struct buf *why)
{
	struct hw_state s;
	hwcap_read(&s, f, 1, hwprobe);
	return hwcap_runs(f, &s, why);
}

/* The hwcap words, and whether the kernel answers hwprobe (key 4,
 * IMA_EXT_0, stands for every key). */
static size_t rv_cpu_state(struct arch_cpu_state *st)
{
	struct hw_state s;
	struct words_feature key4 = { .hwprobe = { .key = 4, .bit = 0 } };
	struct feature probe = { .arch = (char *)arch_riscv64.name, .keyed[CAT_KEYS_DIALECT] = &key4 };
	size_t k = hwcap_cpu_state(st);
	hwcap_read(&s, &probe, 1, hwprobe);
	if (!k)
		return 0;
	st[k] = (struct arch_cpu_state){ "ASMCAP_CPU_HWPROBE", "", s.hwprobe == 1 ? "riscv_hwprobe answered"
	                                 : "riscv_hwprobe failed: the kernel (or qemu-user) lacks it" };
	snprintf(st[k++].value, sizeof st->value, "%s", s.hwprobe == 1 ? "yes" : "no");
	return k;
}

/* RISC-V ELF psABI: $x code (its ISA string may follow), $d data. */
static char mapping(const char *name)
{
	return words_mapping(name, "xd", "x");
}

static const struct obj_rules rules = { .mapping = mapping };

const struct arch arch_riscv64 = {
	.name = "riscv64", .bits = 64,
#if defined(__riscv) && __riscv_xlen == 64
	.is_host = 1,
#endif
	.elf_machine = 243, .orders = ARCH_ORDER_LE,
	.macros = macros, .facts = facts, .scope = ARCH_SCOPE_PUSHPOP,
	.scope_open = "\t.option push\n", .scope_close = "\t.option pop\n",
	.min_insn = 2, WORDS_CODE_HOOKS(decode, sp_down), .cpu_runs = rv_cpu_runs, .cpu_state = rv_cpu_state,
	.obj_rules = &rules,
};
