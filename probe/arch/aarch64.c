/* AArch64: templates/aarch64, the PAC/BTI build macros, `.arch` /
 * `.arch_extension` directives that nothing can undo (so snippets that
 * carry one run alone).  The audit decoder (fixed 4-byte words), the
 * AT_HWCAP/AT_HWCAP2 reader and the prologue reader plug in here. */
#include "arch.h"

static const char *const macros[] = {
	"__ARM_FEATURE_BTI_DEFAULT", "__ARM_FEATURE_PAC_DEFAULT", "__ARM_ARCH", "__ARM_FEATURE_SVE",
	"__ARM_FEATURE_SVE2", "__ARM_FEATURE_SME", "__ARM_FEATURE_CRYPTO", "__ARM_FEATURE_SHA3",
	"__ARM_FEATURE_ATOMICS", "__ARM_FEATURE_CRC32", NULL,
};

const struct arch arch_aarch64 = {
	.name = "aarch64", .bits = 64,
	.elf_machine = 183, .coff_machine = 0xaa64, .macho_cputype = 0x0100000c,
	.macros = macros, .scope = ARCH_SCOPE_ALONE,
	.min_insn = 4,
};
