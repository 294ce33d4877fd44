/* SPDX-License-Identifier: MIT */
/* Inside libmont only: the C backend and the unchecked modexp core. Built
 * with -fvisibility=hidden, so none of this leaves libmont.so; the static
 * library keeps them linkable for the test harness. */
#ifndef MONT_INTERNAL_H
#define MONT_INTERNAL_H

#include <stdint.h>
#include <string.h>
#include "mont.h"

/* lo + *hi * 2^64 = a*b + t + c: the C backend's one product step (it
 * cannot overflow: (2^64-1)^2 + 2(2^64-1) = 2^128-1).  unsigned __int128
 * where the compiler has it (64-bit targets); otherwise, and with
 * MONT_PORTABLE_MUL (the tests' check of this path on x86_64), four
 * 32x32-bit products, which 32-bit targets have in hardware. */
static inline uint64_t mont_mac(uint64_t a, uint64_t b, uint64_t t, uint64_t c, uint64_t *hi)
{
#if defined(__SIZEOF_INT128__) && !defined(MONT_PORTABLE_MUL)
	unsigned __int128 p = (unsigned __int128)a * b + t + c;
	*hi = (uint64_t)(p >> 64);
	return (uint64_t)p;
#else
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	/* the middle column: below 3 * 2^32, no overflow */
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	uint64_t lo = mid << 32 | (uint32_t)p00;
	uint64_t h = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	lo += t;
	h += lo < t;		/* carries as values, never branches */
	lo += c;
	h += lo < c;
	*hi = h;
	return lo;
#endif
}

/* x + y + *carry; *carry (0 or 1) becomes the carry out. */
static inline uint64_t mont_adc(uint64_t x, uint64_t y, uint64_t *carry)
{
	uint64_t s = x + y + *carry;
	*carry = ((x & y) | ((x | y) & ~s)) >> 63;
	return s;
}

/* x - y - *borrow; *borrow (0 or 1) becomes the borrow out. */
static inline uint64_t mont_sbb(uint64_t x, uint64_t y, uint64_t *borrow)
{
	uint64_t d = x - y - *borrow;
	*borrow = ((~x & y) | (~(x ^ y) & d)) >> 63;
	return d;
}

/* Portable Montgomery multiply: same contract as mont_mul, any num in
 * 1..MONT_MAX_NUM, constant time. Squaring is a multiply by itself. */
void mont_c_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                const uint64_t *n, uint64_t n0, size_t num);
void mont_c_sqr(uint64_t *r, const uint64_t *a, const uint64_t *n,
                uint64_t n0, size_t num);

/* A way to run mont_mul/mont_sqr; needs: the CPU_* bits it requires;
 * ifma: the backend's modexp runs the radix-2^52 kernels where they win. */
struct mont_impl {
	const char *name;
	void (*mul)(uint64_t *, const uint64_t *, const uint64_t *,
	            const uint64_t *, uint64_t, size_t);
	void (*sqr)(uint64_t *, const uint64_t *, const uint64_t *,
	            uint64_t, size_t);
	unsigned needs;
	int ifma;
};

/* The IFMA kernels (perlasm/x86_64-ifma.pl): almost Montgomery products
 * of L limbs of 52 bits, r = a*b/2^(52L) mod n, r < 2n; two: two such
 * products at once, each argument holding both sets interleaved limb by
 * limb (span limbs each; the limbs from L on 0) and k0 pointing at both k0
 * values. */
typedef void mont_amm_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                         const uint64_t *n, uint64_t k0, size_t L);
typedef void mont_amm2_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                          const uint64_t *n, const uint64_t *k0, size_t L);
/* out = the first `width` limbs of entry idx0 of a table of `entries`
 * entries stride limbs apart, the odd limbs from entry idx1 (a packed
 * pair's second number), every entry read (width and stride multiples of
 * 8, out and table 64-byte aligned). */
typedef void mont_gather_fn(uint64_t *out, const uint64_t *table, size_t width,
                            size_t entries, size_t stride, uint64_t idx0,
                            uint64_t idx1);
struct mont_ifma {
	mont_amm_fn *one;	/* one product of L limbs (NULL when two is set) */
	mont_amm2_fn *two;	/* two at once, the numbers interleaved, or NULL:
				 * call one twice */
	size_t L;		/* 52-bit limbs per number: R = 2^(52L) */
	size_t span;		/* limbs each number takes: L (lf with one_f) rounded up to 8 (4 in two) */
	mont_gather_fn *gather;	/* the table lookup */
	/* one product modulo n' = n*mu, mu = -n^-1 mod 2^(52 digits), so n'
	 * = -1 mod 2^(52 digits) (k0 = 1; its rows take digits limbs of b a
	 * trip; with two it reads n'' = (n'+1)/2^104 in n''s place), of lf
	 * limbs (span then fits lf), where it is faster; or NULL */
	mont_amm_fn *one_f;
	mont_amm_fn *one_lf;	/* with one_f: one's product mod n at lf limbs */
	size_t lf;
	unsigned digits;
	mont_amm2_fn *sqr2;	/* two's a*a (called with b = a), or NULL: two */
	mont_amm_fn *sqr1;	/* one's a*a at L (called with b = a), or NULL: one;
				 * with two NULL, for each way */
};

/* 1 and *out set when mont_modexp (ways 1) or mont_modexp2 (ways 2) of
 * num limbs runs the IFMA kernels: the ifma backend is selected and they
 * win at this size; 0 for the 64-bit kernels. */
int mont_ifma_for(size_t num, int ways, struct mont_ifma *out);
/* The kernels for num limbs whatever the backend and the size's speed (0:
 * none: not built, or num past their contract); the tests use it alone. */
int mont_ifma_kernel(size_t num, int ways, struct mont_ifma *out);
/* mont_ifma_choose: keeps k's product modulo n' (k->one_f, from
 * mont_ifma_kernel) only where MONT_IFMA_NPRIME=1 or, unset, where it
 * measured faster than k->one modulo n on this core (once per register
 * count, at the first exponentiation of such a size); otherwise k holds n's
 * kernel alone (one_f NULL, span for L). mont_ifma_for applies it. */
void mont_ifma_choose(struct mont_ifma *k);
/* The blocks of the ADX squaring mont_sqr and the adx backend run: 16
 * (montk_sqr_adx) or 8 (montk_sqr_adx8), as MONT_ADX_SQR says or the
 * faster measured at the first ADX squaring; 0 where the CPU runs no ADX. */
int mont_adx_sqr_blocks(void);

/* base^exp mod n of `ways` (1 or 2) numbers of num limbs through the
 * IFMA kernels k (mont/ifma.c): r[i] = base[i]^exp[i] mod n[i], checked
 * arguments as for mont_modexp_unchecked; every r[i] is written last. */
void mont_ifma_modexp(int ways, uint64_t *const *r, const uint64_t *const *base,
                      const uint64_t *const *exp, const size_t *exp_limbs,
                      const uint64_t *const *n, size_t num,
                      const struct mont_ifma *k);

/* Radix 2^52 (mont/ifma.c): out = the L 52-bit limbs of the num-limb x
 * (x < 2^(52L)); x = the num-limb value of L normalised 52-bit limbs;
 * x = 2^k mod n for k >= 64 num + 64 (n public). */
void mont_to52(uint64_t *out, const uint64_t *x, size_t num, size_t L);
void mont_from52(uint64_t *x, const uint64_t *in, size_t L, size_t num);
void mont_pow2_mod(uint64_t *x, size_t k, const uint64_t *n, size_t num);

/* mont_modexp_batch's 8-lane IFMA exponentiation (mont/batch.c): 1 when
 * its kernels were built and take num limbs (the tests use it alone);
 * mont_ifma_batch_for: 1 when mont_modexp_batch of count numbers runs it
 * (the ifma backend is selected and it wins at this size and count). */
int mont_ifma_batch_kernel(size_t num);
int mont_ifma_batch_for(size_t num, size_t count);
/* r[i] = base[i]^exp[i] mod n[i], i < count <= 8, checked arguments as
 * for mont_modexp_unchecked, in the lanes of the 8-lane kernels (a build
 * without them loops over mont_modexp); every r[i] is written last. */
void mont_ifma_batch(size_t count, uint64_t *const r[], const uint64_t *const base[],
                     const uint64_t *const exp[], size_t exp_limbs,
                     const uint64_t *const n[], size_t num);

/* The backend mont_mul/mont_sqr use for num limbs (modexp asks once, not
 * per multiply); aborts when num > MONT_MAX_NUM. */
const struct mont_impl *mont_impl_for(size_t num);

/* 1 when the CPU runs AVX2 and the OS saves YMM state (and
 * MONT_ASSUME_CPU, if set, names avx2; in the test build it alone
 * decides). */
int mont_cpu_avx2(void);

/* r = t mod n for t = t_top*R + t[0..num-1] < 2n (t_top is 0 or 1),
 * without a branch. r may alias t. */
void mont_reduce_once(uint64_t *r, const uint64_t *t, uint64_t t_top,
                      const uint64_t *n, size_t num);

/* mont_modexp's argument checks: MONT_OK or the first error. */
int mont_modexp_check(const uint64_t *r, const uint64_t *base, const uint64_t *exp,
                      size_t exp_limbs, const uint64_t *n, size_t num);
/* mont_modexp past its checks: the backend's exponentiation. */
void mont_modexp_run(uint64_t *r, const uint64_t *base, const uint64_t *exp,
                     size_t exp_limbs, const uint64_t *n, size_t num);

/* mont_modexp its argument checks (the checks are the only part
 * that branches on base; the constant-time test calls this directly).
 * window is 1..MONT_WINDOW_MAX, narrowed to what the 32 KiB table holds
 * for num (6 bits fit up to 64 limbs). */
void mont_modexp_unchecked(uint64_t *r, const uint64_t *base,
                           const uint64_t *exp, size_t exp_limbs,
                           const uint64_t *n, size_t num, unsigned window);

/* Shared by the 64-bit and the IFMA exponentiations (mont/modexp.c). */
/* out = table[idx] (entries of stride limbs, stride a multiple of 8, the
 * table and out 64-byte aligned), reading every entry under masks. */
void mont_select_entry(uint64_t *restrict out, const uint64_t *restrict table,
                       size_t entries, size_t stride, uint64_t idx);
/* Bits [bit, bit+w) of exp; bits past exp_limbs read as 0. */
uint64_t mont_window_at(const uint64_t *exp, size_t exp_limbs, size_t bit,
                        unsigned w);
/* one = R mod n, R = 2^(64 num). */
void mont_r_mod(uint64_t *one, const uint64_t *n, size_t num);
/* one = R mod n and rr = R^2 mod n, R = 2^(64 num). */
void mont_constants(uint64_t *one, uint64_t *rr, const uint64_t *n,
                    uint64_t n0, size_t num);
/* x = 2x mod n, x < n. */
void mont_mod_double(uint64_t *x, const uint64_t *n, size_t num);
/* Entries of stride limbs fit the 32 KiB table: the widest window up to
 * `window` for which entries * stride <= limbs. */
unsigned mont_window_fits(size_t stride, unsigned window, size_t limbs);
#define MONT_TABLE_LIMBS (MONT_MAX_NUM << 5)

/* The window width mont_modexp uses for num limbs (1..MONT_WINDOW_MAX) on
 * this CPU (6 from fewer limbs when the AVX2 lookup runs). */
unsigned mont_window_bits(size_t num);
#define MONT_WINDOW_MAX 6

/* Hides x from the optimiser so it cannot turn mask arithmetic back
 * into a branch. */
static inline uint64_t mont_barrier(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	__asm__("" : "+r"(x));
#endif
	return x;
}

/* memset the optimiser cannot drop: the asm claims to read the memory. */
static inline void mont_wipe(void *p, size_t len)
{
	memset(p, 0, len);
#if defined(__GNUC__) || defined(__clang__)
	__asm__ __volatile__("" : : "r"(p) : "memory");
#endif
}

#endif
