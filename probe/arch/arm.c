/* 32-bit ARM (A32/T32): templates/arm, the Thumb/architecture/NEON build
 * macros, `.arch`/`.fpu`/`.arch_extension` directives that nothing can
 * undo (so snippets that carry one run alone).  The A32/T32 audit decoder
 * (by mapping symbols), the AT_HWCAP/AT_HWCAP2 reader and the prologue
 * reader plug in here. */
#include "arch.h"

static const char *const macros[] = {
	"__thumb__", "__thumb2__", "__ARM_ARCH", "__ARM_NEON", "__ARM_FP",
	"__ARM_FEATURE_CRYPTO", "__ARM_FEATURE_CRC32", "__ARM_FEATURE_IDIV", "__ARM_PCS_VFP", NULL,
};

const struct arch arch_arm = {
	.name = "arm", .bits = 32,
	.elf_machine = 40, .coff_machine = 0x1c4, .macho_cputype = 12,
	.macros = macros, .scope = ARCH_SCOPE_ALONE,
	.min_insn = 2,
};
