/* SPDX-License-Identifier: MIT */
/* Kernel micro-benchmark: cycles per call of our kernels and of OpenSSL's
 * raw bn_mul_mont (static libcrypto.a) on the same operands.
 *   cc -O2 -Ibuild tests/kernels/kbench.c build/mont-x86_64.s \
 *      /usr/lib/x86_64-linux-gnu/libcrypto.a -lpthread -o kbench
 *   taskset -c 1 ./kbench [NUM...]
 * Prints TSC ticks per call (median of batches) and the ratio to
 * bn_mul_mont measured in the same run; bn_mul_mont squares (sqr8x) when
 * a == b and num % 8 == 0. Not a test: timings are noise-prone. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
#include "mont-kernels.h"

typedef montk_mul_fn mulf;
typedef montk_sqr_fn sqrf;
int bn_mul_mont(uint64_t *rp, const uint64_t *ap, const uint64_t *bp,
                const uint64_t *np, const uint64_t *n0, int num);
void OPENSSL_cpuid_setup(void);

enum { BATCH = 16, RUNS = 301, MAXN = MONTK_MAX_NUM };
static uint64_t r[MAXN], a[MAXN], b[MAXN], n[MAXN], n0;

static int cmp(const void *x, const void *y)
{
	uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;
	return p < q ? -1 : p > q;
}

static uint64_t rnd(void)
{
	static uint64_t s = 0x9e3779b97f4a7c15;
	s ^= s << 13, s ^= s >> 7, s ^= s << 17;
	return s;
}

/* median TSC ticks per call of one kind of call */
static double measure(int kind, size_t num)
{
	static uint64_t t[RUNS];
	for (int run = 0; run < RUNS; run++) {
		uint64_t t0 = __rdtsc();
		for (int i = 0; i < BATCH; i++) {
			switch (kind) {
			case 0: bn_mul_mont(r, a, b, n, &n0, (int)num); break;
			case 1: bn_mul_mont(r, a, a, n, &n0, (int)num); break;
			case 2: montk_mul_mulq(r, a, b, n, n0, num); break;
			case 3: montk_sqr_mulq(r, a, n, n0, num); break;
#ifdef MONT_HAVE_ADX
			case 4: montk_mul_adx(r, a, b, n, n0, num); break;
			case 5: montk_sqr_adx(r, a, n, n0, num); break;
#endif
			}
		}
		t[run] = __rdtsc() - t0;
	}
	qsort(t, RUNS, sizeof t[0], cmp);
	return (double)t[RUNS / 2] / BATCH;
}

int main(int argc, char **argv)
{
	static const char *name[] = {"ossl mul", "ossl sqr", "mulq mul", "mulq sqr",
	                             "adx mul", "adx sqr"};
	size_t nums[16] = {16, 32, 64};
	int count = 3;
	if (argc > 1)
		for (count = 0; count + 1 < argc && count < 16; count++)
			nums[count] = strtoul(argv[count + 1], NULL, 0);
	OPENSSL_cpuid_setup();
#ifdef MONT_HAVE_ADX
	int kinds = 6;
#else
	int kinds = 4;
#endif
	for (int c = 0; c < count; c++) {
		size_t num = nums[c];
		if (num < MONTK_MIN_NUM || num > MAXN)
			return fprintf(stderr, "num %zu out of %d..%d\n", num, MONTK_MIN_NUM, MAXN), 2;
		for (size_t i = 0; i < num; i++)
			n[i] = rnd(), a[i] = rnd(), b[i] = rnd();
		n[0] |= 1;
		n[num - 1] |= 1ULL << 63;
		a[num - 1] >>= 1, b[num - 1] >>= 1;
		uint64_t inv = 1;	/* Newton: inv = n^-1 mod 2^64 */
		for (int i = 0; i < 6; i++)
			inv *= 2 - n[0] * inv;
		n0 = -inv;
		double base[2] = {0, 0};
		printf("num %zu (%zu bits), median TSC ticks per call\n",
		       num, num * 64);
		for (int k = 0; k < kinds; k++) {
			double v = measure(k, num);
			if (k < 2)
				base[k] = v;
			printf("  %-9s %9.0f  %.3fx ossl %s\n", name[k], v,
			       v / base[k & 1], (k & 1) ? "sqr" : "mul");
		}
	}
	return 0;
}
