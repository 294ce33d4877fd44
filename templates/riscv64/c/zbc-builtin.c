// feature: zbc-builtin
// summary: __builtin_riscv_clmul_64 compiled to Zbc's CLMUL
// insn: zbc
// target: arch=+zbc
// mflags: -march=rv64gc_zbc
// since: gcc 14, clang 16
#include <stdint.h>

ASMCAP_TARGET uint64_t asmcap_probe(uint64_t a, uint64_t b);
ASMCAP_TARGET uint64_t asmcap_probe(uint64_t a, uint64_t b)
{
	return __builtin_riscv_clmul_64(a, b);
}
