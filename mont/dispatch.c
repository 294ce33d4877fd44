/* SPDX-License-Identifier: MIT */
/* Which code runs mont_mul/mont_sqr: decided once from what was built (the
 * generated kernels header) and what the CPU can run (CPUID leaf 7: the ADX
 * kernels use MULX, BMI2, and ADCX/ADOX, ADX; the IFMA kernels AVX512F,
 * AVX512IFMA and AVX512VL with the OS saving opmask and all 32 ZMM
 * registers), unless MONT_BACKEND or mont_select() asks otherwise. The
 * same CPUID read tells modexp whether its table lookup may use AVX2.
 * The ifma backend is adx (or mulq) for mont_mul/mont_sqr; its modexp
 * runs the radix-2^52 kernels at the sizes mont_ifma_for() picks. */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"

#if defined(MONT_ASM) && defined(__x86_64__)
#include <cpuid.h>
#include "mont-kernels.h"      /* generated: the kernels, hidden in the asm */
#elif defined(MONT_ASM) && defined(__aarch64__)
#include "mont-kernels.h"      /* generated: ARMv8.0 kernels, every CPU runs them */
#else
#undef MONT_ASM
#endif

#ifdef MONT_ASM
/* The kernels' sizes come from their generator (mont-kernels.h). */
_Static_assert(MONTK_MAX_NUM >= MONT_MAX_NUM,
               "the asm kernels must take every num up to MONT_MAX_NUM");
_Static_assert(MONTK_MIN_NUM >= 1 && MONTK_MIN_NUM <= MONT_MAX_NUM,
               "the asm kernels' smallest num must be a size the library takes");
#else
#define MONTK_MIN_NUM 1	/* no kernels: the C code takes every num */
#endif

enum { CPU_BMI2 = 1u << 0, CPU_ADX = 1u << 1, CPU_AVX2 = 1u << 2,
       CPU_IFMA = 1u << 3 };


#ifdef MONT_HAVE_ADX
/* The ADX squaring: montk_sqr_adx (16-limb blocks where num % 16 == 0)
 * or montk_sqr_adx8 (8-limb blocks), whichever adx_sqr_choose() found
 * faster on this core (perlasm/x86_64-mont.pl: an Intel core of family 6
 * model 167 squared faster in the first; Emerald Rapids, model 207, and
 * AMD Zen 5 in the second). Set once, at the first call. */
static montk_sqr_fn *adx_sqr_kernel = montk_sqr_adx;
static pthread_once_t adx_sqr_once = PTHREAD_ONCE_INIT;
static void adx_sqr_choose(void);

/* The adx and ifma backends' mont_sqr: the choice made at the first call
 * (only a process that squares on ADX pays for it). */
static void adx_sqr(uint64_t *r, const uint64_t *a, const uint64_t *n,
                    uint64_t n0, size_t num)
{
	pthread_once(&adx_sqr_once, adx_sqr_choose);
	adx_sqr_kernel(r, a, n, n0, num);
}
#endif

/* What this library holds, slowest first. */
static const struct mont_impl built[] = {
	{"c", mont_c_mul, mont_c_sqr, 0, 0},
#ifdef MONT_HAVE_A64
	{"a64", montk_mul_a64, montk_sqr_a64, 0, 0},
#endif
#if defined(MONT_ASM) && defined(__x86_64__)
	{"mulq", montk_mul_mulq, montk_sqr_mulq, 0, 0},
#ifdef MONT_HAVE_ADX
	{"adx", montk_mul_adx, adx_sqr, CPU_BMI2 | CPU_ADX, 0},
#endif
#ifdef MONT_HAVE_IFMA
#ifdef MONT_HAVE_ADX
	{"ifma", montk_mul_adx, adx_sqr, CPU_IFMA | CPU_BMI2 | CPU_ADX, 1},
#else
	{"ifma", montk_mul_mulq, montk_sqr_mulq, CPU_IFMA, 1},
#endif
#endif
#endif
};
#define NBUILT (sizeof built / sizeof built[0])
static const char *const known[] = {"c", "a64", "mulq", "adx", "ifma"};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static unsigned cpu;				/* CPU_* bits, set once */
static _Atomic(const struct mont_impl *) active;

/* MONT_ASSUME_CPU=adx,bmi2,avx2,ifma: the CPU features dispatch may use.
 * The shipped library only narrows CPUID with it (the tests mask IFMA or
 * ADX): naming a feature the CPU lacks must not reach an illegal
 * instruction.  The test build (MONT_TEST_ASSUME_WIDENS, libmont-test.a)
 * takes it instead of CPUID: valgrind's CPUID hides ADX although valgrind
 * runs it, and the tests under valgrind must reach the ADX code. */
static unsigned parse_cpu(const char *list)
{
	static const struct { const char *name; unsigned bit; } names[] = {
		{"bmi2", CPU_BMI2}, {"adx", CPU_ADX}, {"avx2", CPU_AVX2},
		{"ifma", CPU_IFMA},
	};
	const size_t count = sizeof names / sizeof names[0];
	unsigned bits = 0;

	while (*list) {
		size_t len = strcspn(list, ",");
		size_t i = 0;
		while (i < count && !(strlen(names[i].name) == len &&
		                  !strncmp(list, names[i].name, len)))
			i++;
		if (i < count)
			bits |= names[i].bit;
		else if (len)
			fprintf(stderr, "libmont: MONT_ASSUME_CPU: ignoring "
			        "unknown feature '%.*s' (bmi2, adx, avx2, ifma)\n", (int)len, list);
		list += len + (list[len] == ',');
	}
	return bits;
}

static unsigned cpuid_bits(void)
{
#if defined(MONT_ASM) && defined(__x86_64__)
	unsigned eax, ebx, ecx, edx, xcr0_lo = 0, xcr0_hi, osxsave;
	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid(1, eax, ebx, ecx, edx);
	osxsave = ecx >> 27 & 1;
	/* XGETBV: XCR0 bits 1-2, the OS saves XMM and YMM; bits 5-7 opmask,
	 * the upper halves of ZMM0-15 and ZMM16-31 */
	if (osxsave)
		__asm__("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
	__cpuid_count(7, 0, eax, ebx, ecx, edx);
	/* leaf 7 EBX: AVX512F 16, AVX512IFMA 21, AVX512VL 31 */
	const unsigned ifma = 1u << 16 | 1u << 21 | 1u << 31;
	return ((ebx >> 8 & 1) ? CPU_BMI2 : 0) | ((ebx >> 19 & 1) ? CPU_ADX : 0) |
	       ((ebx >> 5 & 1) && (xcr0_lo & 6) == 6 ? CPU_AVX2 : 0) |
	       ((ebx & ifma) == ifma && (xcr0_lo & 0xe6) == 0xe6 ? CPU_IFMA : 0);
#else
	return 0;
#endif
}

static unsigned read_cpu(void)
{
	const char *assume = getenv("MONT_ASSUME_CPU");
#ifdef MONT_TEST_ASSUME_WIDENS
	if (assume)
		return parse_cpu(assume);
#endif
	unsigned bits = cpuid_bits();
	return assume ? bits & parse_cpu(assume) : bits;
}

/* 0 and *out set, or the mont_select() error code. */
static int find(const char *name, const struct mont_impl **out)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < NBUILT; i++) {
		if (strcmp(name, built[i].name))
			continue;
		if ((cpu & built[i].needs) != built[i].needs)
			return -3;
		*out = &built[i];
		return 0;
	}
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strcmp(name, known[i]))
			return -2;
	return -1;
}

#if defined(MONT_HAVE_ADX) || defined(MONT_HAVE_IFMA)
/* env_choice: 0 or 1 where the environment variable var is v0 or v1; -1
 * where it is unset or empty, and where it is neither (then said on
 * stderr, once per variable: each is read once). */
static int env_choice(const char *var, const char *v0, const char *v1)
{
	const char *want = getenv(var);

	if (!want || !*want)
		return -1;
	if (!strcmp(want, v0) || !strcmp(want, v1))
		return !strcmp(want, v1);
	fprintf(stderr, "libmont: %s=%s is not %s or %s; timing both\n", var, want, v0, v1);
	return -1;
}

/* faster_of: 0 or 1, whichever of run(ctx, 0) and run(ctx, 1) takes less
 * time: the best of five alternating timings of each. The monotonic clock
 * is fine-grained everywhere (a thread's CPU time is not under
 * mingw-w64); a run preempted loses one of its five. The choices timed so
 * are between kernels that give the same results in constant time, on
 * public inputs: only the speed depends on them. */
static int faster_of(void (*run)(void *ctx, int which), void *ctx)
{
	double best[2] = {1e300, 1e300};

	for (int r = 0; r < 5; r++)
		for (int w = 0; w < 2; w++) {
			struct timespec t0, t1;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			run(ctx, w);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			double t = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
			if (t < best[w])
				best[w] = t;
		}
	return best[1] < best[0];
}

/* Odd-looking public limbs for the timings: v_j below 2^bits. */
static uint64_t filler(size_t j, unsigned bits)
{
	return (UINT64_C(0x9e3779b97f4a7c15) * (j + 1)) >> (64 - bits);
}
#endif

#ifdef MONT_HAVE_ADX
/* 16 chained 2048-bit squares of x mod n with the kernel of 16-limb
 * (which 0) or 8-limb blocks (1). */
struct sqr_timing { uint64_t x[32], n[32], n0; };
static void time_sqr(void *ctx, int which)
{
	struct sqr_timing *t = ctx;

	for (int i = 0; i < 16; i++)
		(which ? montk_sqr_adx8 : montk_sqr_adx)(t->x, t->x, t->n, t->n0, 32);
}

/* adx_sqr_choose: sets adx_sqr_kernel once (the CPU runs ADX: the adx
 * and ifma backends need it, and init() has read cpu). With
 * MONT_ADX_SQR=16 or 8 the kernel of those blocks; otherwise the faster
 * of the two on a 2048-bit square (faster_of: about 0.2 ms). */
static void adx_sqr_choose(void)
{
	int which = env_choice("MONT_ADX_SQR", "16", "8");
	struct sqr_timing t;

	if (which < 0) {
		/* an odd 2048-bit modulus with its top bit set, x < n */
		for (size_t i = 0; i < 32; i++) {
			t.n[i] = filler(i, 64);
			t.x[i] = t.n[i] >> 1;
		}
		t.n[0] |= 1;
		t.n[31] |= UINT64_C(1) << 63;
		t.x[31] = t.n[31] >> 1;
		t.n0 = mont_n0(t.n[0]);
		which = faster_of(time_sqr, &t);
	}
	adx_sqr_kernel = which ? montk_sqr_adx8 : montk_sqr_adx;
}
#endif

static void init(void)
{
	static const char *const why[] = {
		"", "is not a backend (c, a64, mulq, adx, ifma)",
		"was not built into this library", "needs CPU features this CPU lacks",
	};
	const struct mont_impl *best = &built[0];
	const char *want = getenv("MONT_BACKEND");

	cpu = read_cpu();
	for (size_t i = 0; i < NBUILT; i++)
		if ((cpu & built[i].needs) == built[i].needs)
			best = &built[i];
	if (want && *want) {
		int rc = find(want, &best);
		if (rc)
			fprintf(stderr, "libmont: MONT_BACKEND=%s %s; using %s\n",
			        want, why[-rc], best->name);
	}
	atomic_store(&active, best);
}

/* The one dispatch decision: the kernels from their smallest num, the C
 * code below it. */
const struct mont_impl *mont_impl_for(size_t num)
{
	if (num > MONT_MAX_NUM) {
		fprintf(stderr, "libmont: num %zu exceeds MONT_MAX_NUM (%d)\n",
		        num, MONT_MAX_NUM);
		abort();
	}
	pthread_once(&once, init);
	if (num < MONTK_MIN_NUM)
		return &built[0];
	return atomic_load_explicit(&active, memory_order_relaxed);
}

int mont_adx_sqr_blocks(void)
{
	pthread_once(&once, init);
#ifdef MONT_HAVE_ADX
	if ((cpu & (CPU_BMI2 | CPU_ADX)) == (CPU_BMI2 | CPU_ADX)) {
		pthread_once(&adx_sqr_once, adx_sqr_choose);
		return adx_sqr_kernel == montk_sqr_adx8 ? 8 : 16;
	}
#endif
	return 0;
}

void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
              const uint64_t *n, uint64_t n0, size_t num)
{
	mont_impl_for(num)->mul(r, a, b, n, n0, num);
}

void mont_sqr(uint64_t *r, const uint64_t *a, const uint64_t *n,
              uint64_t n0, size_t num)
{
	mont_impl_for(num)->sqr(r, a, n, n0, num);
}

#ifdef MONT_HAVE_IFMA
/* The gather kernels over column chunks of up to MONTK_IFMA_GATHER_CMAX
 * 512-bit registers. */
static void ifma_gather(uint64_t *out, const uint64_t *table, size_t width,
                        size_t entries, size_t stride, uint64_t idx0, uint64_t idx1)
{
	static montk_gather_fn *const gather[] = MONTK_IFMA_GATHER;

	for (size_t j = 0; j < width; j += 8 * MONTK_IFMA_GATHER_CMAX) {
		size_t c = (width - j) / 8;
		if (c > MONTK_IFMA_GATHER_CMAX)
			c = MONTK_IFMA_GATHER_CMAX;
		gather[c - 1](out + j, table + j, entries, 8 * stride, idx0, idx1);
	}
}
#endif

/* SQUARE(table, K): the square of K registers from the generator's
 * table MONTK_IFMA_<table> (kernels for K = <table>_KMIN..<table>_KMAX:
 * where they beat the product, perlasm/x86_64-ifma.pl), or NULL: the
 * product squares. */
#define SQUARE(table, K) \
	((K) >= MONTK_IFMA_##table##_KMIN && (K) <= MONTK_IFMA_##table##_KMAX ? \
	 table##_fns[(K) - MONTK_IFMA_##table##_KMIN] : NULL)

#ifdef MONT_HAVE_IFMA
/* nprime_limbs: the limbs of n' = n*mu for montk_amm52f_K, its K (*kf)
 * and the digits its rows take a trip (*digits; mu = -n^-1 mod
 * 2^(52 digits), 52 digits bits more than n's 64 num). One digit: the
 * limbs 52 bits more take. Two where that kernel takes them
 * (MONTK_IFMA_X1F_PAIR_K): L even and at most 8K - 2; past that one
 * digit in a register more, at least its 8K - 7 limbs (one_lf's). */
static size_t nprime_limbs(size_t num, size_t *kf, unsigned *digits)
{
	size_t lf = (64 * num + 54 + 51) / 52;

	*digits = 1;
	*kf = (lf + MONTK_IFMA_LANES - 1) / MONTK_IFMA_LANES;
	if (*kf == MONTK_IFMA_X1F_PAIR_K) {
		size_t l2 = (64 * num + 106 + 51) / 52;
		l2 += l2 % 2;
		if (l2 <= MONTK_IFMA_LANES * *kf - 2) {
			*digits = 2;
			return l2;
		}
		++*kf;
		lf = MONTK_IFMA_LANES * *kf - 7;
	}
	return lf;
}
#endif

int mont_ifma_kernel(size_t num, int ways, struct mont_ifma *out)
{
#ifdef MONT_HAVE_IFMA
	static mont_amm_fn *const one[] = MONTK_IFMA_X1;
	static mont_amm2_fn *const two[] = MONTK_IFMA_X2P;
	static mont_amm_fn *const one_f[] = MONTK_IFMA_X1F;
	static mont_amm_fn *const X1SQR_fns[] = MONTK_IFMA_X1SQR;
	static mont_amm2_fn *const X2PSQR_fns[] = MONTK_IFMA_X2PSQR;
	static mont_amm2_fn *const X2PAMS_fns[] = MONTK_IFMA_X2PAMS;
	/* 52-bit limbs for 64 num + 2 bits (4n <= R) */
	const size_t L = (64 * num + 2 + 51) / 52;
	const size_t k1 = (L + MONTK_IFMA_LANES - 1) / MONTK_IFMA_LANES;
	const size_t k2 = (L + MONTK_IFMA_X2P_LANES - 1) / MONTK_IFMA_X2P_LANES;

	if (num < MONTK_IFMA_MIN_NUM || num > MONTK_IFMA_MAX_NUM || k1 > MONTK_IFMA_KMAX)
		return 0;

	if (ways == 2 && k2 <= MONTK_IFMA_X2P_KMAX) {
		*out = (struct mont_ifma){.two = two[k2 - 1], .L = L, .span = k2 * MONTK_IFMA_X2P_LANES,
		                          .gather = ifma_gather,
		                          .sqr2 = k2 >= MONTK_IFMA_X2PSQR_KMIN ? SQUARE(X2PSQR, k2)
		                                                             : SQUARE(X2PAMS, k2)};
		return 1;
	}
	*out = (struct mont_ifma){.one = one[k1 - 1], .L = L, .span = k1 * MONTK_IFMA_LANES,
	                          .gather = ifma_gather, .sqr1 = SQUARE(X1SQR, k1)};
	/* the n' kernels where there are some, in a register more where lf
	 * needs it (the span then too: see the generator) */
	size_t kf;
	unsigned digits;
	const size_t lf = nprime_limbs(num, &kf, &digits);
	if (ways == 1 && kf <= MONTK_IFMA_X1F_KMAX) {
		out->one_f = one_f[kf - 1];
		out->one_lf = one[kf - 1];
		out->lf = lf;
		out->digits = digits;
		out->span = kf * MONTK_IFMA_LANES;
	}
	return 1;
#else
	(void)num;
	(void)ways;
	(void)out;
	return 0;
#endif
}

#ifdef MONT_HAVE_IFMA
/* Whether mont_modexp works modulo n' (k->one_f), by one_f's register
 * count and whether k->one takes one fewer: 0 not yet measured, 1 modulo
 * n, 2 modulo n'. The first measurement stored stays. */
static _Atomic unsigned char nprime_chosen[MONTK_IFMA_X1F_KMAX][2];
static int nprime_want = -1;	/* MONT_IFMA_NPRIME: 0, 1, or -1 (measure) */
static pthread_once_t nprime_once = PTHREAD_ONCE_INIT;

static void nprime_read(void)
{
	nprime_want = env_choice("MONT_IFMA_NPRIME", "0", "1");
}

/* 16 chained squares x = x*x/R with k->one modulo n at L limbs (which 0)
 * or k->one_f modulo n' at lf (1). */
struct amm_timing {
	const struct mont_ifma *k;
	uint64_t k0;
	_Alignas(64) uint64_t x[2][8 * MONTK_IFMA_X1F_KMAX], n[2][8 * MONTK_IFMA_X1F_KMAX];
};
static void time_amm(void *ctx, int which)
{
	struct amm_timing *t = ctx;
	mont_amm_fn *f = which ? t->k->one_f : t->k->one;
	uint64_t *x = t->x[which];

	for (int i = 0; i < 16; i++)
		f(x, x, x, t->n[which], which ? 1 : t->k0, which ? t->k->lf : t->k->L);
}

/* nprime_faster: whether k->one_f modulo n' squares faster than k->one
 * modulo n, on public limbs of the sizes they take (faster_of). */
static int nprime_faster(const struct mont_ifma *k)
{
	struct amm_timing t = {.k = k};
	const size_t L[2] = {k->L, k->lf};

	for (int w = 0; w < 2; w++) {
		for (size_t j = 0; j < L[w]; j++)
			t.n[w][j] = filler(j, 52);
		t.n[w][L[w] - 1] >>= 3;		/* 4n <= R */
		memcpy(t.x[w], t.n[w], L[w] * sizeof t.x[w][0]);
		t.x[w][L[w] - 1] >>= 1;		/* x < 2n */
	}
	t.n[0][0] |= 1;
	/* n' = -1 mod 2^104 (the two-digit kernel reads n'' there: its time
	 * depends on no limb) */
	t.n[1][0] = t.n[1][1] = (UINT64_C(1) << 52) - 1;
	t.k0 = mont_n0(t.n[0][0]) & ((UINT64_C(1) << 52) - 1);
	return faster_of(time_amm, &t);
}
#endif

void mont_ifma_choose(struct mont_ifma *k)
{
#ifdef MONT_HAVE_IFMA
	if (!k->one_f)
		return;
	pthread_once(&nprime_once, nprime_read);
	const size_t kf = k->span / MONTK_IFMA_LANES;
	const size_t k1 = (k->L + MONTK_IFMA_LANES - 1) / MONTK_IFMA_LANES;
	int use = nprime_want;
	if (use < 0) {
		_Atomic unsigned char *c = &nprime_chosen[kf - 1][k1 < kf];
		unsigned char v = atomic_load_explicit(c, memory_order_relaxed);
		if (!v) {
			unsigned char none = 0;
			v = (unsigned char)(1 + nprime_faster(k));
			if (!atomic_compare_exchange_strong(c, &none, v))
				v = none;
		}
		use = v - 1;
	}
	if (!use) {
		k->one_f = k->one_lf = NULL;
		k->lf = k->digits = 0;
		k->span = k1 * MONTK_IFMA_LANES;
	}
#else
	(void)k;
#endif
}

/* The IFMA exponentiation wins from these sizes (num, 64-bit limbs) up to
 * MONTK_IFMA_MAX_NUM; below them adx runs. Measured against adx on this
 * machine kind (2 vCPUs of a shared KVM guest, AVX-512 IFMA), us per
 * full-size exponentiation, best of 15, with
 *   echo "time2 NUM 15" | MONT_BACKEND=adx|ifma taskset -c 1 build/mont-harness
 * (mont_modexp; then mont_modexp2, two of them), ifma forced at every size
 * (the thresholds below set to 1):
 *   num         1      2      3      4      5      7      8      9     12     16
 *   adx   1   1.60   5.19   10.1   11.9   28.1   43.3   37.9   71.7    144    218
 *   ifma  1   4.29   7.92   11.6   15.0   18.3   45.7   51.7   58.3   77.2    149
 *   adx   2   3.23   10.4   20.2   23.5   56.4   86.5   75.2    140    286    436
 *   ifma  2   5.34   9.60   13.8   17.7   21.4   53.7   60.7   68.5   90.6    184
 * (below 4 limbs adx is the C code; adx has its 8x8 squaring at 8 limbs.)
 * One exponentiation: IFMA also wins at 5, 6 (22.0 against 29.7), 10 and 11
 * limbs (64.3, 70.8 against 95.7, 133), and past 12 at every size measured
 * (13: 123 against 186; 14: 132 against 231); the threshold leaves 5 and 6
 * to adx, so one number decides. Two at once: IFMA from 2 limbs, where
 * the margin is 8%; from 3 it is 30% and more. */
#define IFMA_MIN_NUM 9
#define IFMA2_MIN_NUM 3
#ifdef MONT_HAVE_IFMA
_Static_assert(IFMA2_MIN_NUM >= MONTK_IFMA_MIN_NUM && IFMA_MIN_NUM >= MONTK_IFMA_MIN_NUM &&
               IFMA2_MIN_NUM <= MONTK_IFMA_MAX_NUM && IFMA_MIN_NUM <= MONTK_IFMA_MAX_NUM,
               "the sizes picked here must be ones the IFMA kernels take");
#endif

int mont_ifma_for(size_t num, int ways, struct mont_ifma *out)
{
	pthread_once(&once, init);
	if (!atomic_load_explicit(&active, memory_order_relaxed)->ifma ||
	    num < (ways == 2 ? IFMA2_MIN_NUM : IFMA_MIN_NUM))
		return 0;
	if (!mont_ifma_kernel(num, ways, out))
		return 0;
	mont_ifma_choose(out);
	return 1;
}

/* The 8-lane IFMA exponentiation costs the same for any count: it wins
 * over count calls of mont_modexp (on ifma) once count exceeds its time
 * over one mont_modexp's. Measured with
 *   taskset -c 1 build/montbench --bits B --only modexp,batch8,ifma
 * (thread CPU time, median of 5 rounds; 256 bits with the harness's
 * `time-batch 4 8 5`), batch8 / modexp:
 *   bits      256   512  1024  1536  2048  3072  4096
 *   ratio     2.5   2.7   3.9   4.9   5.8   5.7   6.3
 * and at 1 limb three calls took 6.8 us against the batch's 7.5 (at 2
 * and 3 limbs three lose: 16.1 and 29.9 us against 12.1 and 16.4; the
 * harness's `time-batch NUM 3 9`, MONT_BACKEND=ifma). So the smallest
 * count that wins, by num (64-bit limbs): */
static size_t batch_min_count(size_t num)
{
	static const struct { size_t num, count; } wins[] = {
		{1, 4}, {8, 3}, {16, 4}, {24, 5}, {48, 6}, {64, 7},
	};
	for (size_t i = 0; i < sizeof wins / sizeof wins[0]; i++)
		if (num <= wins[i].num)
			return wins[i].count;
	return MONT_BATCH_MAX + 1;	/* past the kernels' sizes */
}

int mont_ifma_batch_for(size_t num, size_t count)
{
	pthread_once(&once, init);
	return atomic_load_explicit(&active, memory_order_relaxed)->ifma &&
	       count >= batch_min_count(num) && mont_ifma_batch_kernel(num);
}

int mont_cpu_avx2(void)
{
	pthread_once(&once, init);
	return (cpu & CPU_AVX2) != 0;
}

const char *mont_backend(void)
{
	pthread_once(&once, init);
	return atomic_load(&active)->name;
}

int mont_select(const char *name)
{
	const struct mont_impl *b;
	int rc;

	pthread_once(&once, init);
	rc = find(name, &b);
	if (!rc)
		atomic_store(&active, b);
	return rc;
}

/* Newton's iteration x <- x(2 - n x) doubles the correct low bits; an odd
 * n is its own inverse mod 8, so five steps reach 96 >= 64 bits. */
uint64_t mont_n0(uint64_t n_lo)
{
	uint64_t x = n_lo;
	for (int i = 0; i < 5; i++)
		x *= 2 - n_lo * x;
	return 0 - x;
}
