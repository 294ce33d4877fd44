/* SPDX-License-Identifier: MIT */
/* mont_modexp_batch beside Intel's crypto_mb (mbx_expNNNN_mb8), eight
 * full-size exponentiations per call, interleaved round by round in one
 * process; measured by hand (crypto_mb is not a dependency: see
 * bench/README.md, "crypto_mb", for its build lines and this program's).
 * Prints per size the median, min and max us (thread CPU time) per call
 * of each side, the throughput (exponentiations per second) and
 * crypto_mb's time over ours, and checks that both computed the same
 * eight results.
 *   cryptomb [ROUNDS] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mont.h"

/* crypto_mb's k1 (AVX-512 IFMA) entry points, as its exp.h declares the
 * dispatched names; built without its dispatcher, they keep the prefix. */
typedef uint64_t int64u;
typedef int mbx_exp_fn(int64u *const out[8], const int64u *const base[8],
                       const int64u *const exp[8], int exp_bits,
                       const int64u *const mod[8], int mod_bits,
                       unsigned char *buf, int len);
mbx_exp_fn k1_mbx_exp1024_mb8, k1_mbx_exp2048_mb8, k1_mbx_exp3072_mb8, k1_mbx_exp4096_mb8;
int k1_mbx_exp_BufferSize(int bits);
/* the dispatcher's name, which crypto_mb's own code calls */
int mbx_exp_BufferSize(int bits);
int mbx_exp_BufferSize(int bits) { return k1_mbx_exp_BufferSize(bits); }

#define MAXN 64
#define ROUNDS_MAX 101

static uint64_t xs = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void)
{
	xs ^= xs << 13;
	xs ^= xs >> 7;
	xs ^= xs << 17;
	return xs;
}

/* Thread CPU time, as montbench measures: time the machine's other jobs
 * take from this thread is not counted. */
static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void bench(int bits, mbx_exp_fn *mb, int rounds)
{
	static uint64_t n[8][MAXN], b[8][MAXN], e[8][MAXN], r1[8][MAXN], r2[8][MAXN];
	uint64_t *o1[8], *o2[8];
	const uint64_t *pn[8], *pb[8], *pe[8];
	size_t num = (size_t)bits / 64;
	int len = k1_mbx_exp_BufferSize(bits);
	unsigned char *buf = malloc((size_t)len);
	double t[2][ROUNDS_MAX];

	for (int k = 0; k < 8; k++) {
		for (size_t i = 0; i < num; i++) {
			n[k][i] = rnd();
			e[k][i] = rnd();
			b[k][i] = rnd();
		}
		n[k][0] |= 1;
		n[k][num - 1] |= (uint64_t)1 << 63;
		e[k][num - 1] |= (uint64_t)1 << 63;
		b[k][num - 1] >>= 1;	/* below n */
		o1[k] = r1[k], o2[k] = r2[k], pn[k] = n[k], pb[k] = b[k], pe[k] = e[k];
	}
	for (int i = 0; i < rounds; i++) {
		double t0 = now_us();
		int st = mb(o1, pb, pe, bits, pn, bits, buf, len);
		double t1 = now_us();
		int rc = mont_modexp_batch(8, o2, pb, pe, num, pn, num);
		double t2 = now_us();
		if (st || rc || memcmp(r1, r2, sizeof r1)) {
			fprintf(stderr, "cryptomb: %d bits: status %d, rc %d, results %s\n", bits,
			        st, rc, memcmp(r1, r2, sizeof r1) ? "differ" : "agree");
			exit(1);
		}
		t[0][i] = t1 - t0;
		t[1][i] = t2 - t1;
	}
	for (int s = 0; s < 2; s++)
		qsort(t[s], (size_t)rounds, sizeof t[s][0], cmp_d);
	double m0 = t[0][rounds / 2], m1 = t[1][rounds / 2];
	printf("%5d  crypto_mb %9.1f (%7.1f..%7.1f) us %8.0f/s   libmont %s %9.1f (%7.1f..%7.1f) us %8.0f/s"
	       "   crypto_mb/libmont %.2f\n", bits, m0, t[0][0], t[0][rounds - 1], 8e6 / m0,
	       mont_backend(), m1, t[1][0], t[1][rounds - 1], 8e6 / m1, m0 / m1);
	free(buf);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 15;
	if (rounds < 1 || rounds > ROUNDS_MAX) {
		fprintf(stderr, "cryptomb: ROUNDS is 1..%d\n", ROUNDS_MAX);
		return 2;
	}
	bench(1024, k1_mbx_exp1024_mb8, rounds);
	bench(2048, k1_mbx_exp2048_mb8, rounds);
	bench(3072, k1_mbx_exp3072_mb8, rounds);
	bench(4096, k1_mbx_exp4096_mb8, rounds);
	return 0;
}
