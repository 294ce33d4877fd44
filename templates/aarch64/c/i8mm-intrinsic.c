// feature: i8mm-intrinsic
// summary: vmmlaq_s32 (arm_neon.h) compiled to SMMLA
// insn: i8mm
// target: +i8mm
// mflags: -march=armv8.6-a+i8mm
// since: gcc 10, clang 11
#include <arm_neon.h>

ASMCAP_TARGET int32x4_t asmcap_probe(int32x4_t r, int8x16_t a, int8x16_t b);
ASMCAP_TARGET int32x4_t asmcap_probe(int32x4_t r, int8x16_t a, int8x16_t b)
{
	return vmmlaq_s32(r, a, b);
}
