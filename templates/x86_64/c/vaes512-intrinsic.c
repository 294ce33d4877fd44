// feature: vaes512-intrinsic
// summary: _mm512_aesenc_epi128 compiled to VAESENC on zmm (EVEX.512)
// insn: vaes512
// target: vaes,avx512f
// mflags: -mvaes -mavx512f
// since: gcc 8, clang 6
#include <immintrin.h>

ASMCAP_TARGET void asmcap_probe(__m512i *r, const __m512i *a, const __m512i *b);
ASMCAP_TARGET void asmcap_probe(__m512i *r, const __m512i *a, const __m512i *b)
{
	*r = _mm512_aesenc_epi128(*a, *b);
}
