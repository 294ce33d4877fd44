// feature: bmi2-intrinsic
// summary: _mulx_u64 compiled to MULX
// insn: bmi2
// target: bmi2
// mflags: -mbmi2
// since: gcc 4.7, clang 3.2
#include <immintrin.h>

ASMCAP_TARGET unsigned long long asmcap_probe(unsigned long long a, unsigned long long b, unsigned long long *hi)
{
	return _mulx_u64(a, b, hi);
}
