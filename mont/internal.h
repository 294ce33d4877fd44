/* Inside libmont only: the C backend and the unchecked modexp core. Built
 * with -fvisibility=hidden, so none of this leaves libmont.so; the static
 * library keeps them linkable for the test harness. */
#ifndef MONT_INTERNAL_H
#define MONT_INTERNAL_H

#include <string.h>
#include "mont.h"

#ifndef __SIZEOF_INT128__
#error "libmont's C backend needs unsigned __int128 (a 64-bit target)"
#endif

typedef unsigned __int128 mont_u128;

/* Portable Montgomery multiply: same contract as mont_mul, any num in
 * 1..MONT_MAX_NUM, constant time. Squaring is a multiply by itself. */
void mont_c_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                const uint64_t *n, uint64_t n0, size_t num);
void mont_c_sqr(uint64_t *r, const uint64_t *a, const uint64_t *n,
                uint64_t n0, size_t num);

/* A way to run mont_mul/mont_sqr; needs: the CPU_* bits it requires;
 * ifma: the backend's modexp runs the radix-2^52 kernels where they win. */
struct mont_backend {
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
 * products at once, each argument holding both sets (L limbs each) and
 * k0 pointing at both k0 values. */
typedef void mont_amm_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                         const uint64_t *n, uint64_t k0);
typedef void mont_amm2_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                          const uint64_t *n, const uint64_t *k0);
struct mont_ifma {
	mont_amm_fn *one;	/* one product of L limbs (NULL when two is set) */
	mont_amm2_fn *two;	/* two at once, or NULL: call one twice */
	size_t L;		/* limbs per number: a multiple of 4 */
};

/* 1 and *out set when mont_modexp (ways 1) or mont_modexp2 (ways 2) of
 * num limbs runs the IFMA kernels: the ifma backend is selected and they
 * win at this size; 0 for the 64-bit kernels. */
int mont_ifma_for(size_t num, int ways, struct mont_ifma *out);
/* The kernels for num limbs whatever the backend and the size's speed (0:
 * none: not built, or num past their contract); the tests use it alone. */
int mont_ifma_kernel(size_t num, int ways, struct mont_ifma *out);

/* base^exp mod n of `ways` (1 or 2) numbers of num limbs through the
 * IFMA kernels k (mont/ifma.c): r[i] = base[i]^exp[i] mod n[i], checked
 * arguments as for mont_modexp_unchecked; every r[i] is written last. */
void mont_ifma_modexp(int ways, uint64_t *const *r, const uint64_t *const *base,
                      const uint64_t *const *exp, const size_t *exp_limbs,
                      const uint64_t *const *n, size_t num,
                      const struct mont_ifma *k);

/* The backend mont_mul/mont_sqr use for num limbs (modexp asks once, not
 * per multiply); aborts when num > MONT_MAX_NUM. */
const struct mont_backend *mont_backend_for(size_t num);

/* 1 when the CPU runs AVX2 and the OS saves YMM state (or
 * MONT_ASSUME_CPU names avx2). */
int mont_cpu_avx2(void);

/* r = t mod n for t = t_top*R + t[0..num-1] < 2n (t_top is 0 or 1),
 * without a branch. r may alias t. */
void mont_reduce_once(uint64_t *r, const uint64_t *t, uint64_t t_top,
                      const uint64_t *n, size_t num);

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
