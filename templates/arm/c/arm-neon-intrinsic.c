// feature: arm-neon-intrinsic
// summary: vaddq_u32 (arm_neon.h) compiled to a NEON VADD
// insn: neon
// target: fpu=neon
// mflags: -mfpu=neon
// since: gcc 4.3, clang 2.9
#include <arm_neon.h>

ASMCAP_TARGET uint32x4_t asmcap_probe(uint32x4_t a, uint32x4_t b);
ASMCAP_TARGET uint32x4_t asmcap_probe(uint32x4_t a, uint32x4_t b)
{
	return vaddq_u32(a, b);
}
