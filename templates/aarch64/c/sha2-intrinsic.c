// feature: sha2-intrinsic
// summary: vsha256hq_u32 (arm_neon.h) compiled to SHA256H
// insn: sha2
// target: +sha2
// mflags: -march=armv8-a+crypto
// since: gcc 6, clang 3.5
#include <arm_neon.h>

ASMCAP_TARGET uint32x4_t asmcap_probe(uint32x4_t abcd, uint32x4_t efgh, uint32x4_t wk);
ASMCAP_TARGET uint32x4_t asmcap_probe(uint32x4_t abcd, uint32x4_t efgh, uint32x4_t wk)
{
	return vsha256hq_u32(abcd, efgh, wk);
}
