// feature: adx-intrinsic
// summary: _addcarryx_u64 compiled to ADCX/ADOX (two independent carry chains)
// insn: adx
// target: adx
// mflags: -madx
// since: gcc 4.9, clang 3.3 know the intrinsic; whether it becomes ADCX is the compiler's choice
#include <immintrin.h>

__extension__ typedef unsigned long long asmcap_u64;   /* the intrinsics' type, also under -std=c89 -pedantic */

ASMCAP_TARGET void asmcap_probe(asmcap_u64 *r, const asmcap_u64 *a, const asmcap_u64 *b);
ASMCAP_TARGET void asmcap_probe(asmcap_u64 *r, const asmcap_u64 *a, const asmcap_u64 *b)
{
	unsigned char c1, c2;
	c1 = _addcarryx_u64(0, a[0], b[0], &r[0]);
	c2 = _addcarryx_u64(0, a[1], b[1], &r[1]);
	c1 = _addcarryx_u64(c1, a[2], r[1], &r[2]);
	c2 = _addcarryx_u64(c2, a[3], r[0], &r[3]);
	r[4] = (asmcap_u64)c1 + c2;
}
