/* RV64: templates/riscv64, the __riscv_* build macros (what -march
 * enables), snippets scoped by `.option push` / `.option pop` so the
 * `.option arch, +X` inside one cannot reach another.  The audit decoder
 * (16/32-bit lengths), the AT_HWCAP/hwprobe reader and the prologue
 * reader plug in here. */
#include "arch.h"

static const char *const macros[] = {
	"__riscv_xlen", "__riscv_flen", "__riscv_compressed", "__riscv_vector", "__riscv_v",
	"__riscv_zba", "__riscv_zbb", "__riscv_zbc", "__riscv_zbs", "__riscv_zbkb", "__riscv_zbkc",
	"__riscv_zbkx", "__riscv_zknd", "__riscv_zkne", "__riscv_zknh", "__riscv_zicond",
	"__riscv_zvbb", "__riscv_zvbc", "__riscv_zvkned", "__riscv_zvknhb", "__riscv_zacas", NULL,
};

const struct arch arch_riscv64 = {
	.name = "riscv64", .bits = 64,
	.elf_machine = 243,
	.macros = macros, .scope = ARCH_SCOPE_PUSHPOP,
	.scope_open = "\t.option push\n", .scope_close = "\t.option pop\n",
	.min_insn = 2,
};
