// feature: adx-inline
// summary: ADCX/ADOX through GNU inline asm (what libgcrypt's and OpenSSL's carry chains use)
// insn: adx
// since: any compiler with GNU inline asm whose assembler knows adx (binutils 2.23, llvm 3.3)
#include <stdint.h>

void asmcap_probe(uint64_t *x, uint64_t *y, uint64_t a, uint64_t b);
void asmcap_probe(uint64_t *x, uint64_t *y, uint64_t a, uint64_t b)
{
	__asm__("adcx {%2, %0|%0, %2}\n\tadox {%3, %1|%1, %3}" : "+r"(*x), "+r"(*y) : "r"(a), "r"(b) : "cc");
}
