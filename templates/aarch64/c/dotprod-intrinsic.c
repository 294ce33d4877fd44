// feature: dotprod-intrinsic
// summary: vdotq_s32 (arm_neon.h) compiled to SDOT
// insn: dotprod
// target: +dotprod
// mflags: -march=armv8.2-a+dotprod
// since: gcc 8, clang 6
#include <arm_neon.h>

ASMCAP_TARGET int32x4_t asmcap_probe(int32x4_t r, int8x16_t a, int8x16_t b);
ASMCAP_TARGET int32x4_t asmcap_probe(int32x4_t r, int8x16_t a, int8x16_t b)
{
	return vdotq_s32(r, a, b);
}
