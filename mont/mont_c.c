/* SPDX-License-Identifier: MIT */
/* The C backend: word-by-word (CIOS) Montgomery multiplication built on
 * one 64x64->128-bit product step (mont_mac). Used on non-x86_64 targets,
 * below the asm kernels' minimum size, and as the tests' second opinion.
 * No branch or address depends on a limb value. */
#include "internal.h"

void mont_c_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                const uint64_t *n, uint64_t n0, size_t num)
{
	uint64_t t[MONT_MAX_NUM + 1];	/* t < 2n: num limbs + one bit;
					 * callers keep num <= MONT_MAX_NUM */

	for (size_t j = 0; j <= num; j++)
		t[j] = 0;
	for (size_t i = 0; i < num; i++) {
		/* t += a * b[i]; (top_hi, top) = t[num] + the carry out */
		uint64_t c = 0, top_hi = 0, k = 0;
		for (size_t j = 0; j < num; j++)
			t[j] = mont_mac(a[j], b[i], t[j], c, &c);
		uint64_t top = mont_adc(t[num], c, &top_hi);
		/* t = (t + m*n) / 2^64, with m chosen so the low limb cancels */
		uint64_t m = t[0] * n0;
		(void)mont_mac(m, n[0], t[0], 0, &c);
		for (size_t j = 1; j < num; j++)
			t[j - 1] = mont_mac(m, n[j], t[j], c, &c);
		top = mont_adc(top, c, &k);
		t[num - 1] = top;
		t[num] = top_hi + k;
	}
	mont_reduce_once(r, t, t[num], n, num);
	mont_wipe(t, (num + 1) * sizeof *t);
}

void mont_reduce_once(uint64_t *r, const uint64_t *t, uint64_t t_top,
                      const uint64_t *n, size_t num)
{
	/* r = t - n unless that borrows out of t_top; the first pass only
	 * finds out, so r may alias t */
	uint64_t borrow = 0;
	for (size_t j = 0; j < num; j++)
		(void)mont_sbb(t[j], n[j], &borrow);
	uint64_t keep_t = mont_barrier(0 - (borrow & (t_top ^ 1)));
	borrow = 0;
	for (size_t j = 0; j < num; j++) {
		uint64_t d = mont_sbb(t[j], n[j], &borrow);
		r[j] = (t[j] & keep_t) | (d & ~keep_t);
	}
}

void mont_c_sqr(uint64_t *r, const uint64_t *a, const uint64_t *n,
                uint64_t n0, size_t num)
{
	mont_c_mul(r, a, a, n, n0, num);
}
