// feature: adx-inline
// summary: ADCX/ADOX through GNU inline asm (what libgcrypt's and OpenSSL's carry chains use)
// insn: adx
// since: any compiler with GNU inline asm whose assembler knows adx (binutils 2.23, llvm 3.3)
#include <stdint.h>

void asmcap_probe(uint64_t *r, const uint64_t *a);
void asmcap_probe(uint64_t *r, const uint64_t *a)
{
	uint64_t x = r[0], y = r[1];
	__asm__("adcx {%2, %0|%0, %2}\n\tadox {%3, %1|%1, %3}" : "+r"(x), "+r"(y) : "r"(a[0]), "r"(a[1]) : "cc");
	r[0] = x;
	r[1] = y;
}
