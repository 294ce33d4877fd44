// feature: vaes-intrinsic
// summary: _mm256_aesenc_epi128 compiled to VAESENC on ymm
// insn: vaes
// target: vaes,avx
// mflags: -mvaes -mavx
// since: gcc 8, clang 6
#include <immintrin.h>

ASMCAP_TARGET void asmcap_probe(__m256i *r, const __m256i *a, const __m256i *b);
ASMCAP_TARGET void asmcap_probe(__m256i *r, const __m256i *a, const __m256i *b)
{
	*r = _mm256_aesenc_epi128(*a, *b);
}
