// feature: sha512-intrinsic
// summary: _mm256_sha512rnds2_epi64 compiled to VSHA512RNDS2
// insn: sha512
// target: sha512,avx2
// mflags: -msha512 -mavx2
// since: gcc 14, clang 18
#include <immintrin.h>

ASMCAP_TARGET void asmcap_probe(__m256i *r, const __m256i *a, const __m128i *k);
ASMCAP_TARGET void asmcap_probe(__m256i *r, const __m256i *a, const __m128i *k)
{
	*r = _mm256_sha512rnds2_epi64(*r, *a, *k);
}
