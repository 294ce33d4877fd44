// feature: sha-intrinsic
// summary: _mm_sha256rnds2_epu32 compiled to SHA256RNDS2
// insn: sha
// target: sha
// mflags: -msha
// since: gcc 5, clang 3.8
#include <immintrin.h>

ASMCAP_TARGET void asmcap_probe(__m128i *r, const __m128i *a, const __m128i *k);
ASMCAP_TARGET void asmcap_probe(__m128i *r, const __m128i *a, const __m128i *k)
{
	*r = _mm_sha256rnds2_epu32(*r, *a, *k);
}
