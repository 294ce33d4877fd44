// feature: vx-intrinsic
// summary: vec_xl and vec_add_u128 (vecintrin.h, the z/Architecture vector language extension) compiled to vector-facility code (VL, VAQ); the `vector' keyword needs -mzvector in the build's flags, which target("arch=z13") alone does not give
// insn: vx
// target: arch=z13
// mflags: -mzvector -march=z13
// since: gcc 5, clang 3.8 (-mzvector with -march=z13)
#include <vecintrin.h>

ASMCAP_TARGET vector unsigned char asmcap_probe(const unsigned char *p, vector unsigned char b);
ASMCAP_TARGET vector unsigned char asmcap_probe(const unsigned char *p, vector unsigned char b)
{
	return vec_add_u128(vec_xl(0, p), b);
}
