/* SPDX-License-Identifier: MIT */
/* mont_modexp_batch: up to eight exponentiations of one size, one per
 * 64-bit lane of the 8-lane IFMA kernels (perlasm/x86_64-ifma-mb.pl) where
 * they run and win, a loop over mont_modexp's code otherwise. The 8-lane
 * exponentiation is mont_ifma_modexp's (mont/ifma.c) with every number
 * held lane-wise: limb j of lane k at index 8j + k, radix 2^52, almost
 * Montgomery products (below 2n, one subtraction at the very end), a
 * fixed window whose table lookup takes each lane's own index. */
#include "internal.h"
#if defined(MONT_ASM) && defined(__x86_64__)
#include "mont-kernels.h"      /* generated: the kernels, hidden in the asm */
#endif

#define LANES 8
#define M52 ((UINT64_C(1) << 52) - 1)
/* The 8-lane path's largest num: 4096 bits, whose 32-entry table fills
 * the 160 KiB below (larger numbers loop over mont_modexp). */
#define MB_MAX_NUM 64
/* 52-bit limbs of the largest number, 4n <= R (L even, as the kernel
 * wants), rounded up to the lookup's 8 vectors. */
#define MB_SPAN_MAX (((((64 * MB_MAX_NUM + 2 + 51) / 52 + 1) & ~(size_t)1) + 7) & ~(size_t)7)
#define MB_TABLE_LIMBS (160 * 1024 / 8)

/* Each lane through mont_modexp's code, into t first: r[i] may alias an
 * input of a later lane. */
static void batch_loop(size_t count, uint64_t *const r[], const uint64_t *const base[],
                       const uint64_t *const exp[], size_t exp_limbs,
                       const uint64_t *const n[], size_t num)
{
	uint64_t t[MONT_BATCH_MAX][MONT_MAX_NUM];

	for (size_t i = 0; i < count; i++)
		mont_modexp_run(t[i], base[i], exp_limbs ? exp[i] : NULL,
		                exp_limbs, n[i], num);
	for (size_t i = 0; i < count; i++)
		memcpy(r[i], t[i], num * sizeof *r[i]);
	mont_wipe(t, sizeof t);
}

#ifdef MONT_HAVE_IFMA_MB
/* The kernel's L for num limbs: 64 num + 2 bits (4n <= R), L even. */
static size_t mb_limbs(size_t num)
{
	size_t L = ((64 * num + 2 + 51) / 52 + 1) & ~(size_t)1;
	return L < MONTK_MB_MIN_L ? MONTK_MB_MIN_L : L;
}

/* Lane k of v (vectors `step` limbs apart) = the L 52-bit limbs of x. */
static void lane_in(uint64_t *v, size_t step, size_t k, const uint64_t *x,
                    size_t num, size_t L)
{
	uint64_t limbs[MB_SPAN_MAX];

	mont_to52(limbs, x, num, L);
	for (size_t j = 0; j < L; j++)
		v[j * step + k] = limbs[j];
	mont_wipe(limbs, sizeof limbs);
}

/* x = the num-limb value of lane k of v (normalised, below 2^(64 num)). */
static void lane_out(uint64_t *x, const uint64_t *v, size_t k, size_t num, size_t L)
{
	uint64_t limbs[MB_SPAN_MAX];

	for (size_t j = 0; j < L; j++)
		limbs[j] = v[LANES * j + k];
	mont_from52(x, limbs, L, num);
	mont_wipe(limbs, sizeof limbs);
}

/* The state of the eight lanes: ctx is the kernels' (L + 2 entries of four
 * vectors: k0 first, then per limb scratch, n_j and the squaring's scratch),
 * power R^2 mod n, then a table entry. */
struct mb {
	size_t L, span;
	_Alignas(64) uint64_t ctx[4 * LANES * (MB_SPAN_MAX + 2)];
	_Alignas(64) uint64_t acc[LANES * MB_SPAN_MAX], power[LANES * MB_SPAN_MAX];
};

/* Lane k's modulus, k0 and R^2 mod n, and its base into entry 1 of the
 * table and 1 into entry 0 (both in plain form still). */
static void mb_lane(struct mb *s, uint64_t *table, size_t k, const uint64_t *base,
                    const uint64_t *n, size_t num)
{
	uint64_t rr[MONT_MAX_NUM];

	lane_in(s->ctx + 5 * LANES, 4 * LANES, k, n, num, s->L);
	s->ctx[k] = mont_n0(n[0]) & M52;
	mont_pow2_mod(rr, 104 * s->L, n, num);
	lane_in(s->power, LANES, k, rr, num, s->L);
	lane_in(table + LANES * s->span, LANES, k, base, num, s->L);
	table[k] = 1;
}

void mont_ifma_batch(size_t count, uint64_t *const r[], const uint64_t *const base[],
                     const uint64_t *const exp[], size_t exp_limbs,
                     const uint64_t *const n[], size_t num)
{
	_Alignas(64) uint64_t table[MB_TABLE_LIMBS];
	_Alignas(64) uint64_t idx[LANES];
	uint64_t plain[LANES][MONT_MAX_NUM];
	struct mb s = {.L = mb_limbs(num)};
	s.span = (s.L + 7) & ~(size_t)7;
	const size_t L = s.L, stride = LANES * s.span;
	const unsigned window = mont_window_fits(stride, 5, MB_TABLE_LIMBS);
	const size_t entries = (size_t)1 << window;
	const size_t windows = (64 * exp_limbs + window - 1) / window;
#define ENTRY(e) (table + (e) * stride)
#define AMM(r, a, b) montk_amm52mb(r, a, b, s.ctx, L)
#define SQR(r, a) montk_ams52mb(r, a, s.ctx, L)

	memset(table, 0, 2 * stride * sizeof *table);
	memset(s.power, 0, stride * sizeof *s.power);
	/* lanes past count repeat lane 0; their results are dropped */
	for (size_t k = 0; k < LANES; k++)
		mb_lane(&s, table, k, base[k < count ? k : 0], n[k < count ? k : 0], num);
	AMM(ENTRY(1), ENTRY(1), s.power);	/* base*R */
	AMM(ENTRY(0), ENTRY(0), s.power);	/* R */
	for (size_t e = 2; e < entries; e++)
		AMM(ENTRY(e), ENTRY(e / 2), ENTRY(e - e / 2));

	/* acc = table[top window], then per window: acc^(2^w) * table[bits] */
	for (size_t j = windows; j--; ) {
		uint64_t *dst = j + 1 == windows ? s.acc : s.power;
		if (j + 1 < windows)
			for (unsigned q = 0; q < window; q++)
				SQR(s.acc, s.acc);
		for (size_t k = 0; k < LANES; k++)
			idx[k] = mont_window_at(exp[k < count ? k : 0], exp_limbs,
			                        j * window, window);
		montk_gather52mb(dst, table, entries, s.span, idx);
		if (j + 1 < windows)
			AMM(s.acc, s.acc, s.power);
	}
	if (!windows)	/* exponent 0 (or no limbs): acc = 1 in Montgomery form */
		memcpy(s.acc, ENTRY(0), stride * sizeof *s.acc);

	/* out of Montgomery form: acc * 1 / R <= n; then one subtraction */
	memset(s.power, 0, stride * sizeof *s.power);
	for (size_t k = 0; k < LANES; k++)
		s.power[k] = 1;
	AMM(s.acc, s.acc, s.power);
#undef AMM
#undef SQR
#undef ENTRY
	for (size_t k = 0; k < count; k++) {
		lane_out(plain[k], s.acc, k, num, L);
		mont_reduce_once(plain[k], plain[k], 0, n[k], num);
	}
	for (size_t k = 0; k < count; k++)	/* last: r may alias any input */
		memcpy(r[k], plain[k], num * sizeof *plain[k]);

	mont_wipe(table, entries * stride * sizeof *table);
	mont_wipe(&s, sizeof s);
	mont_wipe(idx, sizeof idx);
	mont_wipe(plain, sizeof plain);
}
#else
/* Without the kernels nothing calls this (mont_ifma_batch_kernel says
 * 0); it keeps the test harness linking. */
void mont_ifma_batch(size_t count, uint64_t *const r[], const uint64_t *const base[],
                     const uint64_t *const exp[], size_t exp_limbs,
                     const uint64_t *const n[], size_t num)
{
	batch_loop(count, r, base, exp, exp_limbs, n, num);
}
#endif

int mont_ifma_batch_kernel(size_t num)
{
#ifdef MONT_HAVE_IFMA_MB
	return num >= 1 && num <= MB_MAX_NUM;
#else
	(void)num;
	return 0;
#endif
}

int mont_modexp_batch(size_t count, uint64_t *const r[], const uint64_t *const base[],
                      const uint64_t *const exp[], size_t exp_limbs,
                      const uint64_t *const n[], size_t num)
{
	if (count > MONT_BATCH_MAX)
		return MONT_ERR_COUNT;
	if (!count)
		return MONT_OK;
	if (!r || !base || !n || (!exp && exp_limbs))
		return MONT_ERR_NULL;
	for (size_t i = 0; i < count; i++) {
		int rc = mont_modexp_check(r[i], base[i], exp_limbs ? exp[i] : NULL,
		                           exp_limbs, n[i], num);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < count; i++)
		for (size_t j = 0; j < i; j++)
			if (r[i] == r[j])
				return MONT_ERR_ALIAS;
	if (mont_ifma_batch_for(num, count))
		mont_ifma_batch(count, r, base, exp, exp_limbs, n, num);
	else
		batch_loop(count, r, base, exp, exp_limbs, n, num);
	return MONT_OK;
}
