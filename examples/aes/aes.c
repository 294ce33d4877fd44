/* SPDX-License-Identifier: MIT */
/* AES-128 encryption, table-driven (FIPS 197), the shape of the kernel's
 * aes-generic: four 256-entry T-tables, state in 32-bit columns.  Which
 * optimisation flags give the fastest code and the smallest frame depends
 * on the compiler (gcc bug 83356: code hoisting pushed aes-generic's frame
 * to thousands of bytes under UBSAN).  `asmcap choose
 * examples/aes/aes.spec` measures the variants instead of gating on
 * __GNUC__. */
#include <stddef.h>
#include <stdint.h>

static uint32_t Te[4][256];
static uint8_t sbox[256];

static uint8_t xtime(uint8_t x)
{
	return (uint8_t)(x << 1 ^ (x >> 7) * 0x1b);
}

/* S-box from its definition: multiplicative inverse in GF(2^8), then the
 * affine map.  Computed once, so no table is pasted from elsewhere. */
static void aes_init_tables(void)
{
	uint8_t p = 1, q = 1;
	do {    /* p walks the powers of 3, q those of 3^-1 */
		p = p ^ xtime(p);
		q ^= q << 1; q ^= q << 2; q ^= q << 4;
		if (q & 0x80) q ^= 0x09;
		uint8_t x = q ^ (uint8_t)(q << 1 | q >> 7) ^ (uint8_t)(q << 2 | q >> 6)
		            ^ (uint8_t)(q << 3 | q >> 5) ^ (uint8_t)(q << 4 | q >> 4);
		sbox[p] = x ^ 0x63;
	} while (p != 1);
	sbox[0] = 0x63;
	for (int i = 0; i < 256; i++) {
		uint8_t s = sbox[i], s2 = xtime(s), s3 = s2 ^ s;
		uint32_t t = (uint32_t)s2 | (uint32_t)s << 8 | (uint32_t)s << 16 | (uint32_t)s3 << 24;
		for (int r = 0; r < 4; r++)
			Te[r][i] = t << (8 * r) | t >> ((32 - 8 * r) & 31);
	}
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void aes128_expand(uint32_t rk[44], const uint8_t key[16])
{
	uint8_t rcon = 1;
	for (int i = 0; i < 4; i++)
		rk[i] = le32(key + 4 * i);
	for (int i = 4; i < 44; i++) {
		uint32_t t = rk[i - 1];
		if (i % 4 == 0) {       /* RotWord, SubWord, Rcon */
			t = (uint32_t)sbox[t >> 8 & 255] | (uint32_t)sbox[t >> 16 & 255] << 8 |
			    (uint32_t)sbox[t >> 24] << 16 | (uint32_t)sbox[t & 255] << 24;
			t ^= rcon;
			rcon = xtime(rcon);
		}
		rk[i] = rk[i - 4] ^ t;
	}
}

#define COL(a, b, c, d) (Te[0][(a) & 255] ^ Te[1][(b) >> 8 & 255] ^ \
                         Te[2][(c) >> 16 & 255] ^ Te[3][(d) >> 24])
#define SUB(a, b, c, d) ((uint32_t)sbox[(a) & 255] | (uint32_t)sbox[(b) >> 8 & 255] << 8 | \
                         (uint32_t)sbox[(c) >> 16 & 255] << 16 | (uint32_t)sbox[(d) >> 24] << 24)

void aes128_encrypt(const uint32_t rk[44], uint8_t out[16], const uint8_t in[16])
{
	uint32_t s0 = le32(in) ^ rk[0], s1 = le32(in + 4) ^ rk[1];
	uint32_t s2 = le32(in + 8) ^ rk[2], s3 = le32(in + 12) ^ rk[3];
	for (int r = 1; r < 10; r++) {   /* SubBytes+ShiftRows+MixColumns by table */
		uint32_t t0 = COL(s0, s1, s2, s3) ^ rk[4 * r];
		uint32_t t1 = COL(s1, s2, s3, s0) ^ rk[4 * r + 1];
		uint32_t t2 = COL(s2, s3, s0, s1) ^ rk[4 * r + 2];
		uint32_t t3 = COL(s3, s0, s1, s2) ^ rk[4 * r + 3];
		s0 = t0; s1 = t1; s2 = t2; s3 = t3;
	}
	uint32_t o[4] = { SUB(s0, s1, s2, s3) ^ rk[40], SUB(s1, s2, s3, s0) ^ rk[41],
	                  SUB(s2, s3, s0, s1) ^ rk[42], SUB(s3, s0, s1, s2) ^ rk[43] };
	for (int i = 0; i < 16; i++)
		out[i] = (uint8_t)(o[i / 4] >> (8 * (i % 4)));
}

/* For `asmcap choose`: a checksum over a CTR-like sequence of blocks (every
 * variant must agree), and a loop to time. */
static uint32_t bench_rk[44];

uint64_t aes_check(void)
{
	uint8_t key[16], blk[16] = { 0 };
	uint64_t sum = 0;
	aes_init_tables();
	for (int i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	aes128_expand(bench_rk, key);
	for (int n = 0; n < 1000; n++) {
		blk[0] = (uint8_t)n;
		aes128_encrypt(bench_rk, blk, blk);
		sum = sum * 31 + le32(blk) + ((uint64_t)le32(blk + 12) << 32);
	}
	return sum;
}

size_t aes_bench(size_t iters)
{
	uint8_t blk[16] = { 0 };
	for (size_t i = 0; i < iters; i++)
		aes128_encrypt(bench_rk, blk, blk);
	__asm__ volatile("" : : "r"(blk[0]) : "memory");
	return iters * 16;
}
