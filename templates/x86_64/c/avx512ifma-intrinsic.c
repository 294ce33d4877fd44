// feature: avx512ifma-intrinsic
// summary: _mm512_madd52lo_epu64 compiled to VPMADD52LUQ (EVEX)
// insn: avx512ifma
// target: avx512ifma
// mflags: -mavx512ifma
// since: gcc 5, clang 3.9
#include <immintrin.h>

ASMCAP_TARGET void asmcap_probe(__m512i *r, const __m512i *a, const __m512i *b);
ASMCAP_TARGET void asmcap_probe(__m512i *r, const __m512i *a, const __m512i *b)
{
	*r = _mm512_madd52lo_epu64(*r, *a, *b);
}
