// feature: crc32-intrinsic
// summary: __crc32d (arm_acle.h) compiled to CRC32X
// insn: crc32
// target: +crc
// mflags: -march=armv8-a+crc
// since: gcc 6, clang 3.5
#include <arm_acle.h>
#include <stdint.h>

ASMCAP_TARGET uint32_t asmcap_probe(uint32_t crc, uint64_t v);
ASMCAP_TARGET uint32_t asmcap_probe(uint32_t crc, uint64_t v)
{
	return __crc32d(crc, v);
}
