// feature: arm-aes-intrinsic
// summary: vaeseq_u8 (arm_neon.h) compiled to AESE (AArch32 Crypto Extension)
// insn: aes
// target: arch=armv8-a+crypto
// mflags: -march=armv8-a -mfpu=crypto-neon-fp-armv8
// since: gcc 5, clang 3.5
#include <arm_neon.h>

ASMCAP_TARGET uint8x16_t asmcap_probe(uint8x16_t d, uint8x16_t k);
ASMCAP_TARGET uint8x16_t asmcap_probe(uint8x16_t d, uint8x16_t k)
{
	return vaeseq_u8(d, k);
}
