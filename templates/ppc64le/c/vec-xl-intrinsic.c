// feature: vec-xl-intrinsic
// summary: altivec.h vec_xl, the unaligned VSX vector load (FFmpeg's and x264's VSX check), compiled to lxvd2x/lxvw4x or ISA 3.00's lxv
// insn: vsx
// target: vsx
// mflags: -mvsx
// since: gcc 6, clang 4
#include <altivec.h>

ASMCAP_TARGET vector signed int asmcap_probe(long off, const signed int *p);
ASMCAP_TARGET vector signed int asmcap_probe(long off, const signed int *p)
{
	return vec_xl(off, p);
}
