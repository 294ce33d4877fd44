// feature: arm-crc32-intrinsic
// summary: __crc32w (arm_acle.h) compiled to CRC32W (AArch32 Armv8)
// insn: crc32
// target: arch=armv8-a+crc
// mflags: -march=armv8-a+crc
// since: gcc 5, clang 3.5
#include <arm_acle.h>
#include <stdint.h>

ASMCAP_TARGET uint32_t asmcap_probe(uint32_t crc, uint32_t v);
ASMCAP_TARGET uint32_t asmcap_probe(uint32_t crc, uint32_t v)
{
	return __crc32w(crc, v);
}
