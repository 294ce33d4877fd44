// feature: sha3-intrinsic
// summary: veor3q_u64 (arm_neon.h) compiled to EOR3
// insn: sha3
// target: +sha3
// mflags: -march=armv8.2-a+sha3
// since: gcc 8, clang 8
#include <arm_neon.h>

ASMCAP_TARGET uint64x2_t asmcap_probe(uint64x2_t a, uint64x2_t b, uint64x2_t c);
ASMCAP_TARGET uint64x2_t asmcap_probe(uint64x2_t a, uint64x2_t b, uint64x2_t c)
{
	return veor3q_u64(a, b, c);
}
