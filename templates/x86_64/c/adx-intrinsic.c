// feature: adx-intrinsic
// summary: _addcarryx_u64 compiled to ADCX/ADOX (two independent carry chains)
// insn: adx
// target: adx
// mflags: -madx
// since: gcc 4.9, clang 3.3 know the intrinsic; whether it becomes ADCX is the compiler's choice
#include <stdint.h>
#include <immintrin.h>

ASMCAP_TARGET void asmcap_probe(unsigned long long *r, const unsigned long long *a, const unsigned long long *b)
{
	unsigned char c1, c2;
	c1 = _addcarryx_u64(0, a[0], b[0], &r[0]);
	c2 = _addcarryx_u64(0, a[1], b[1], &r[1]);
	c1 = _addcarryx_u64(c1, a[2], r[1], &r[2]);
	c2 = _addcarryx_u64(c2, a[3], r[0], &r[3]);
	r[4] = (uint64_t)c1 + c2;
}
