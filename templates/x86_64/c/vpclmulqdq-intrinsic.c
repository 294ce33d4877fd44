// feature: vpclmulqdq-intrinsic
// summary: _mm256_clmulepi64_epi128 compiled to VPCLMULQDQ on ymm
// insn: vpclmulqdq
// target: vpclmulqdq,avx
// mflags: -mvpclmulqdq -mavx
// since: gcc 8, clang 6
#include <immintrin.h>

ASMCAP_TARGET void asmcap_probe(__m256i *r, const __m256i *a, const __m256i *b);
ASMCAP_TARGET void asmcap_probe(__m256i *r, const __m256i *a, const __m256i *b)
{
	*r = _mm256_clmulepi64_epi128(*a, *b, 0x10);
}
