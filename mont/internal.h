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

/* A way to run mont_mul/mont_sqr; needs: the CPU_* bits it requires. */
struct mont_backend {
	const char *name;
	void (*mul)(uint64_t *, const uint64_t *, const uint64_t *,
	            const uint64_t *, uint64_t, size_t);
	void (*sqr)(uint64_t *, const uint64_t *, const uint64_t *,
	            uint64_t, size_t);
	unsigned needs;
};

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
