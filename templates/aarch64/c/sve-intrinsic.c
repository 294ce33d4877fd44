// feature: sve-intrinsic
// summary: svadd_s32_x (arm_sve.h) compiled to an SVE ADD
// insn: sve
// target: +sve
// mflags: -march=armv8.2-a+sve
// since: gcc 10, clang 9
#include <arm_sve.h>

ASMCAP_TARGET svint32_t asmcap_probe(svbool_t p, svint32_t a, svint32_t b);
ASMCAP_TARGET svint32_t asmcap_probe(svbool_t p, svint32_t a, svint32_t b)
{
	return svadd_s32_x(p, a, b);
}
