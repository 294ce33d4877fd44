// feature: adx-intrinsic
// summary: _addcarryx_u64 compiled to ADCX/ADOX (two independent carry chains)
// insn: adx
// target: adx
// mflags: -madx
// since: gcc 4.9, clang 3.3 know the intrinsic; whether it becomes ADCX is the compiler's choice
#include <immintrin.h>

__extension__ typedef unsigned long long asmcap_u64;   /* the intrinsics' type, also under -std=c89 -pedantic */

ASMCAP_TARGET asmcap_u64 asmcap_probe(asmcap_u64 a, asmcap_u64 b, asmcap_u64 *x, asmcap_u64 *y);
ASMCAP_TARGET asmcap_u64 asmcap_probe(asmcap_u64 a, asmcap_u64 b, asmcap_u64 *x, asmcap_u64 *y)
{
	unsigned char c1, c2;
	c1 = _addcarryx_u64(0, a, *x, x);
	c2 = _addcarryx_u64(0, b, *y, y);
	c1 = _addcarryx_u64(c1, b, *x, x);
	c2 = _addcarryx_u64(c2, a, *y, y);
	return (asmcap_u64)c1 + c2;
}
