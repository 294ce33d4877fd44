// feature: lasx-intrinsic
// summary: __lasx_xvadd_w (lasxintrin.h) compiled to XVADD.W; its types declared only under -mlasx (or an -march with LASX): target("lasx") answers no
// insn: lasx
// target: lasx
// mflags: -mlasx
// since: clang 17 (lasxintrin.h); here clang-19, clang-22
#include <lasxintrin.h>

ASMCAP_TARGET __m256i asmcap_probe(__m256i a, __m256i b);
ASMCAP_TARGET __m256i asmcap_probe(__m256i a, __m256i b)
{
	return __lasx_xvadd_w(a, b);
}
