// feature: pmull-intrinsic
// summary: vmull_p64 (arm_neon.h) compiled to PMULL
// insn: pmull
// target: +aes
// mflags: -march=armv8-a+crypto
// since: gcc 6, clang 3.5
#include <arm_neon.h>

ASMCAP_TARGET poly128_t asmcap_probe(poly64_t a, poly64_t b);
ASMCAP_TARGET poly128_t asmcap_probe(poly64_t a, poly64_t b)
{
	return vmull_p64(a, b);
}
