// feature: v-intrinsic
// summary: __riscv_vadd_vv_i32m1 (riscv_vector.h, the v1.0 intrinsics) compiled to VADD.VV
// insn: v
// target: arch=+v
// mflags: -march=rv64gcv
// since: gcc 13, clang 17 (v1.0 names; clang 16 had the __riscv_ prefix as an option)
#include <riscv_vector.h>

ASMCAP_TARGET vint32m1_t asmcap_probe(vint32m1_t a, vint32m1_t b, size_t vl);
ASMCAP_TARGET vint32m1_t asmcap_probe(vint32m1_t a, vint32m1_t b, size_t vl)
{
	return __riscv_vadd_vv_i32m1(a, b, vl);
}
