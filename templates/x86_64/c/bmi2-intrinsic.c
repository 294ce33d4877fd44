// feature: bmi2-intrinsic
// summary: _mulx_u64 compiled to MULX
// insn: bmi2
// target: bmi2
// mflags: -mbmi2
// since: gcc 4.7, clang 3.2
#include <immintrin.h>

__extension__ typedef unsigned long long asmcap_u64;   /* the intrinsics' type, also under -std=c89 -pedantic */

ASMCAP_TARGET asmcap_u64 asmcap_probe(asmcap_u64 a, asmcap_u64 b, asmcap_u64 *hi);
ASMCAP_TARGET asmcap_u64 asmcap_probe(asmcap_u64 a, asmcap_u64 b, asmcap_u64 *hi)
{
	return _mulx_u64(a, b, hi);
}
