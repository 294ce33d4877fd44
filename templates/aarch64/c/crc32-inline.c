// feature: crc32-inline
// summary: CRC32X through GNU inline asm, its extension named in the asm (the kernel's and zlib's form)
// insn: crc32
// since: any compiler with GNU inline asm whose assembler knows crc (binutils 2.25, llvm 3.5)
#include <stdint.h>

uint32_t asmcap_probe(uint32_t crc, uint64_t v);
uint32_t asmcap_probe(uint32_t crc, uint64_t v)
{
	__asm__(".arch_extension crc\n\tcrc32x %w0, %w0, %x1" : "+r"(crc) : "r"(v));
	return crc;
}
