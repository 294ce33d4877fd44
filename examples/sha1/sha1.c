/* SPDX-License-Identifier: MIT */
/* SHA-1 block function (FIPS 180-4, section 6.1.2) with a rolling 16-word
 * schedule, whose W[] store comes in four variants.  Which one is fastest,
 * and which gives the smallest stack frame, depends on the compiler: git's
 * block-sha1 picked one per architecture by hand in 2009.  `asmcap choose
 * examples/sha1/sha1.spec` measures instead.
 *
 *   -DW_STORE=0  plain store
 *   -DW_STORE=1  volatile store
 *   -DW_STORE=2  asm("" : "+m"(W[i]))  (the value must be in memory)
 *   -DW_STORE=3  asm("" ::: "memory")  (a full compiler barrier)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef W_STORE
#define W_STORE 0
#endif

#if W_STORE == 0
#define SET_W(i, v) (W[(i) & 15] = (v))
#elif W_STORE == 1
#define SET_W(i, v) (*(volatile uint32_t *)&W[(i) & 15] = (v))
#elif W_STORE == 2
#define SET_W(i, v) do { W[(i) & 15] = (v); __asm__("" : "+m"(W[(i) & 15])); } while (0)
#elif W_STORE == 3
#define SET_W(i, v) do { W[(i) & 15] = (v); __asm__("" ::: "memory"); } while (0)
#else
#error "W_STORE must be 0..3"
#endif

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static uint32_t load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Rounds 0..15 read the message, later ones extend the schedule in place. */
#define SRC(i) ((i) < 16 ? load_be32(block + 4 * (i)) \
	: ROL(W[((i) + 13) & 15] ^ W[((i) + 8) & 15] ^ W[((i) + 2) & 15] ^ W[(i) & 15], 1))

#define ROUND(i, f, k) do { \
	uint32_t w_ = SRC(i); SET_W(i, w_); \
	uint32_t t_ = ROL(a, 5) + (f) + e + (k) + w_; \
	e = d; d = c; c = ROL(b, 30); b = a; a = t_; } while (0)

#define R4(i, f, k) ROUND(i, f, k); ROUND((i) + 1, f, k); ROUND((i) + 2, f, k); ROUND((i) + 3, f, k)
#define R20(i, f, k) R4(i, f, k); R4((i) + 4, f, k); R4((i) + 8, f, k); R4((i) + 12, f, k); R4((i) + 16, f, k)

#define F0 ((b & c) | (~b & d))
#define F1 (b ^ c ^ d)
#define F2 ((b & c) | (b & d) | (c & d))

void sha1_block(uint32_t h[5], const unsigned char *block, size_t nblocks)
{
	uint32_t W[16];
	for (; nblocks--; block += 64) {
		uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
		/* Fully unrolled, as git's is: the W[] store is what varies. */
		R20(0, F0, 0x5a827999u);
		R20(20, F1, 0x6ed9eba1u);
		R20(40, F2, 0x8f1bbcdcu);
		R20(60, F1, 0xca62c1d6u);
		h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
	}
}

/* For `asmcap choose`: the digest of a fixed message (every variant must
 * agree), and a loop to time. */
static unsigned char msg[64 * 64];

uint64_t sha1_check(void)
{
	uint32_t h[5] = { 0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u, 0xc3d2e1f0u };
	for (size_t i = 0; i < sizeof msg; i++)
		msg[i] = (unsigned char)(i * 131 + 7);
	sha1_block(h, msg, sizeof msg / 64);
	return (uint64_t)h[0] << 32 ^ h[1] ^ (uint64_t)h[2] << 16 ^ h[3] ^ (uint64_t)h[4] << 40;
}

size_t sha1_bench(size_t iters)
{
	uint32_t h[5] = { 0 };
	for (size_t i = 0; i < iters; i++)
		sha1_block(h, msg, sizeof msg / 64);
	__asm__ volatile("" : : "r"(h[0]) : "memory");
	return iters * sizeof msg;     /* bytes processed */
}
