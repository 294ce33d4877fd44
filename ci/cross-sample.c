/* SPDX-License-Identifier: MIT */
/* What ci/matrix builds for a cross row (aarch64, armv7, riscv64, loongarch64, s390x, ppc64le): plain()
 * uses no optional extension under the target's default flags; each
 * use_<feature>() exists when the row's -march enables that feature, and
 * its code must hold that feature's instructions (asmcap audit checks). */
#include <stdint.h>

uint32_t plain(const uint32_t *p, int n)
{
	uint32_t s = 0;
	for (int i = 0; i < n; i++)
		s = (s << 5 | s >> 27) ^ p[i] * 2654435761u;
	return s;
}

#if defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>
uint32_t use_crc32(uint32_t c, uint32_t v)
{
	return __crc32w(c, v);
}
#endif

#if defined(__aarch64__) && defined(__ARM_FEATURE_SHA3)
#include <arm_neon.h>
uint64x2_t use_sha3(uint64x2_t a, uint64x2_t b, uint64x2_t c)
{
	return veor3q_u64(a, b, c);
}
#endif

#if defined(__arm__) && (defined(__ARM_FEATURE_AES) || defined(__ARM_FEATURE_CRYPTO))
#include <arm_neon.h>
uint8x16_t use_aes(uint8x16_t d, uint8x16_t k)
{
	return vaeseq_u8(d, k);
}
#endif

#if defined(__riscv_zbb)
int use_zbb(unsigned long x)
{
	return __builtin_clzl(x | 1);
}
#endif

#if defined(__riscv_zba)
long use_zba(const long *p, long i)
{
	return p[i];   /* sh3add */
}
#endif

#if defined(__loongarch_sx)
#include <lsxintrin.h>
__m128i use_lsx(__m128i a, __m128i b)
{
	return __lsx_vadd_w(a, b);
}
#endif

#if defined(__loongarch_asx)
#include <lasxintrin.h>
__m256i use_lasx(__m256i a, __m256i b)
{
	return __lasx_xvadd_w(a, b);
}
#endif

#if defined(__s390x__) && defined(__VX__)
typedef uint32_t asmcap_v4u __attribute__((vector_size(16)));
asmcap_v4u use_vx(asmcap_v4u a, asmcap_v4u b)
{
	return a + b;   /* vaf */
}
#endif

#if defined(__s390x__) && defined(__VX__) && __ARCH__ >= 13
asmcap_v4u use_vxe2(const asmcap_v4u *p)
{
	asmcap_v4u v = *p;      /* byte-reversed elements: vlbrf */
	return (asmcap_v4u){__builtin_bswap32(v[0]), __builtin_bswap32(v[1]),
	                    __builtin_bswap32(v[2]), __builtin_bswap32(v[3])};
}
#endif

#if defined(__CRYPTO__)
#include <altivec.h>
vector unsigned char use_vcipher(vector unsigned char s, vector unsigned char k)
{
	return (vector unsigned char)__builtin_crypto_vcipher(s, k);
}
#endif

#if defined(__MMA__)
void use_mma(__vector_quad *acc, vector unsigned char a, vector unsigned char b)
{
	__builtin_mma_xvf32ger(acc, a, b);
}
#endif
