// feature: lsx-intrinsic
// summary: __lsx_vadd_w (lsxintrin.h) compiled to VADD.W; the header declares its types only under -mlsx (or an -march with LSX): clang takes target("lsx") and the attribute answer is no
// insn: lsx
// target: lsx
// mflags: -mlsx
// since: clang 17 (lsxintrin.h); here clang-19, clang-22
#include <lsxintrin.h>

ASMCAP_TARGET __m128i asmcap_probe(__m128i a, __m128i b);
ASMCAP_TARGET __m128i asmcap_probe(__m128i a, __m128i b)
{
	return __lsx_vadd_w(a, b);
}
