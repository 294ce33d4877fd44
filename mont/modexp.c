/* SPDX-License-Identifier: MIT */
/* Constant-time modular exponentiation: fixed windows over every bit of the
 * exponent (leading zero bits included), a table of base powers in
 * Montgomery form, and table lookups that read every entry under masks. */
#include "internal.h"

/* Table entries sit `stride` limbs apart: num rounded up to 8 limbs (64
 * bytes), the smallest block of the AVX2 lookup below. */
#define SELECT_BLOCK 8
static size_t table_stride(size_t num)
{
	return (num + SELECT_BLOCK - 1) & ~(size_t)(SELECT_BLOCK - 1);
}

/* The table's limbs: 32 entries of the largest size, 32 KiB of stack. */
#define TABLE_LIMBS MONT_TABLE_LIMBS

unsigned mont_window_fits(size_t stride, unsigned window, size_t limbs)
{
	while ((stride << window) > limbs)
		window--;
	return window;
}

/* The widest window up to `window` whose table fits. */
static unsigned window_that_fits(size_t num, unsigned window)
{
	return mont_window_fits(table_stride(num), window, TABLE_LIMBS);
}

unsigned mont_window_bits(size_t num)
{
	/* Measured (ADX kernels; C below 4 limbs), best of several runs, us
	 * per modexp with a full-size exponent, on a shared 2-core AMD Zen 4
	 * VM (a harness beside libmont.a, like `time NUM W REPS` in
	 * tests/mont/harness.c):
	 *   lookup   num     w=4     w=5     w=6   (two runs each, best shown)
	 *   AVX2      16   254.5   248.2   251.0
	 *   AVX2      24      -    769.5   764.3
	 *   AVX2      32      -     1729    1712
	 *   AVX2      48      -     5626    5511
	 *   AVX2      64      -    13067   12764
	 *   generic   32      -     1777    1787
	 *   generic   64      -    13204   13071
	 * Older figures (generic lookup): w=3 lost at 2 to 32 limbs, and
	 * below 16 limbs w=4 beat 5 (8 limbs: 64.0 vs 67.1).
	 * Past 64 limbs a 6-bit table would not fit the 32 KiB. */
	if (num < 16)
		return 4;
	return window_that_fits(num, num >= (mont_cpu_avx2() ? 24 : 33) ? 6 : 5);
}

/* out = table[idx] without an address or branch that depends on idx: every
 * entry is read and masked. Both lookups keep a block of the result in
 * registers while that block of every entry streams past. */

/* Any target: 4-limb blocks of plain limbs, which gcc and clang vectorise
 * to two SSE2 registers at -O2, masks from a wiped array. Written with
 * gcc vector types instead, the body ran 1.3-1.5x slower: gcc lowered the
 * 32-byte vectors through the stack. */
static void select_generic(uint64_t *restrict out,
                           const uint64_t *restrict table, size_t entries,
                           size_t stride, uint64_t idx)
{
	uint64_t mask[1 << MONT_WINDOW_MAX];

	for (size_t i = 0; i < entries; i++) {
		uint64_t d = i ^ idx;
		mask[i] = mont_barrier(((d | (0 - d)) >> 63) - 1);
	}
	for (size_t j = 0; j < stride; j += 4) {
		const uint64_t *e = table + j;
		uint64_t o0 = 0, o1 = 0, o2 = 0, o3 = 0;
		for (size_t i = 0; i < entries; i++, e += stride) {
			o0 |= e[0] & mask[i];
			o1 |= e[1] & mask[i];
			o2 |= e[2] & mask[i];
			o3 |= e[3] & mask[i];
		}
		out[j] = o0;
		out[j + 1] = o1;
		out[j + 2] = o2;
		out[j + 3] = o3;
	}
	mont_wipe(mask, entries * sizeof *mask);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_SELECT_AVX2 1
/* Four limbs in one AVX2 register; the table and out are 64-byte aligned. */
typedef uint64_t select_vec __attribute__((vector_size(32)));

/* Limbs [0, 8) of the result ([0, 16) if wide) from those limbs of every
 * entry, e the first entry's. The mask of entry i is a compare of i with
 * idx in a register (VPCMPEQQ): no mask array to fill and wipe, 20-25 ns
 * less per lookup at 16-32 limbs with gcc. */
__attribute__((target("avx2"))) static inline void
select_avx2_block(uint64_t *restrict out, const uint64_t *restrict e,
                  size_t entries, size_t stride, uint64_t idx, int wide)
{
	const select_vec want = {idx, idx, idx, idx}, step = {1, 1, 1, 1};
	select_vec o0 = {0, 0, 0, 0}, o1 = o0, o2 = o0, o3 = o0, count = o0;

	for (size_t i = 0; i < entries; i++, e += stride) {
		select_vec m = (select_vec)(count == want);
		count += step;
		o0 |= *(const select_vec *)e & m;
		o1 |= *(const select_vec *)(e + 4) & m;
		if (wide) {
			o2 |= *(const select_vec *)(e + 8) & m;
			o3 |= *(const select_vec *)(e + 12) & m;
		}
	}
	*(select_vec *)out = o0;
	*(select_vec *)(out + 4) = o1;
	if (wide) {
		*(select_vec *)(out + 8) = o2;
		*(select_vec *)(out + 12) = o3;
	}
}

/* 16-limb blocks (the 32 KiB table of 64-limb entries read in 230 ns
 * instead of 320-380 with 8-limb blocks), 8 for the rest of the stride. */
__attribute__((target("avx2")))
static void select_avx2(uint64_t *restrict out, const uint64_t *restrict table,
                        size_t entries, size_t stride, uint64_t idx)
{
	size_t j = 0;

	for (; j + 2 * SELECT_BLOCK <= stride; j += 2 * SELECT_BLOCK)
		select_avx2_block(out + j, table + j, entries, stride, idx, 1);
	if (j < stride)
		select_avx2_block(out + j, table + j, entries, stride, idx, 0);
}
#endif

void mont_select_entry(uint64_t *restrict out, const uint64_t *restrict table,
                       size_t entries, size_t stride, uint64_t idx)
{
#ifdef HAVE_SELECT_AVX2
	if (mont_cpu_avx2()) {
		select_avx2(out, table, entries, stride, idx);
		return;
	}
#endif
	select_generic(out, table, entries, stride, idx);
}

/* Only the (public) position decides what is read. */
uint64_t mont_window_at(const uint64_t *exp, size_t exp_limbs, size_t bit,
                        unsigned w)
{
	size_t limb = bit / 64;
	unsigned shift = bit % 64;
	uint64_t v = limb < exp_limbs ? exp[limb] >> shift : 0;

	if (shift + w > 64 && limb + 1 < exp_limbs)
		v |= exp[limb + 1] << (64 - shift);
	return v & ((UINT64_C(1) << w) - 1);
}

void mont_mod_double(uint64_t *x, const uint64_t *n, size_t num)
{
	uint64_t carry = 0;
	for (size_t j = 0; j < num; j++) {
		uint64_t top = x[j] >> 63;
		x[j] = x[j] << 1 | carry;
		carry = top;
	}
	mont_reduce_once(x, x, carry, n, num);
}

/* n is public: no secret involved. */
void mont_r_mod(uint64_t *one, const uint64_t *n, size_t num)
{
	size_t top = num - 1, bits, doublings;

	while (top > 0 && n[top] == 0)
		top--;
	bits = 64 * top + 64 - (size_t)__builtin_clzll(n[top]);
	/* 2^(bits-1) < n (n odd, not a power of two), or 0 when n == 1 */
	memset(one, 0, num * sizeof *one);
	if (bits > 1)
		one[(bits - 1) / 64] = UINT64_C(1) << ((bits - 1) % 64);
	for (doublings = 64 * num - (bits - 1); doublings; doublings--)
		mont_mod_double(one, n, num);
}

void mont_constants(uint64_t *one, uint64_t *rr, const uint64_t *n,
                    uint64_t n0, size_t num)
{
	size_t odd = 64 * num;
	unsigned squarings = 0;

	mont_r_mod(one, n, num);
	/* A Montgomery squaring takes 2^k R to 2^2k R. With 64 num =
	 * odd * 2^squarings, squaring 2^odd R that often gives 2^(64 num) R. */
	while (odd % 2 == 0) {
		odd /= 2;
		squarings++;
	}
	memcpy(rr, one, num * sizeof *rr);
	while (odd--)
		mont_mod_double(rr, n, num);
	while (squarings--)
		mont_sqr(rr, rr, n, n0, num);
}

void mont_modexp_unchecked(uint64_t *r, const uint64_t *base,
                           const uint64_t *exp, size_t exp_limbs,
                           const uint64_t *n, size_t num, unsigned window)
{
	_Alignas(64) uint64_t table[TABLE_LIMBS];
	_Alignas(64) uint64_t acc[MONT_MAX_NUM], power[MONT_MAX_NUM];
	uint64_t rr[MONT_MAX_NUM];

	window = window_that_fits(num, window);
	const size_t entries = (size_t)1 << window, stride = table_stride(num);
	const uint64_t n0 = mont_n0(n[0]);
	const size_t windows = (64 * exp_limbs + window - 1) / window;
	const struct mont_impl *k = mont_impl_for(num);
	uint64_t *const one = table, *const base_m = table + stride;

	/* table[i] = base^i * R mod n; the padding limbs stay 0. Even powers
	 * are squares, the cheaper operation. */
	memset(table, 0, entries * stride * sizeof *table);
	mont_constants(one, rr, n, n0, num);
	k->mul(base_m, base, rr, n, n0, num);
	for (size_t i = 2; i < entries; i++) {
		if (i % 2)
			k->mul(table + i * stride, table + (i - 1) * stride,
			       base_m, n, n0, num);
		else
			k->sqr(table + i * stride, table + i / 2 * stride,
			       n, n0, num);
	}

	/* acc = table[top window], then per window below it:
	 * acc = acc^(2^w) * table[bits]. An empty exponent leaves acc = 1. */
	memcpy(acc, one, num * sizeof *acc);
	for (size_t i = windows; i--; ) {
		uint64_t bits = mont_window_at(exp, exp_limbs, i * window, window);
		if (i + 1 == windows) {
			mont_select_entry(acc, table, entries, stride, bits);
			continue;
		}
		for (unsigned s = 0; s < window; s++)
			k->sqr(acc, acc, n, n0, num);
		mont_select_entry(power, table, entries, stride, bits);
		k->mul(acc, acc, power, n, n0, num);
	}

	/* out of Montgomery form: acc * 1 / R */
	memset(power, 0, num * sizeof *power);
	power[0] = 1;
	k->mul(acc, acc, power, n, n0, num);
	memcpy(r, acc, num * sizeof *r);

	mont_wipe(table, entries * stride * sizeof *table);
	mont_wipe(acc, sizeof acc);
	mont_wipe(power, sizeof power);
}

/* 1 when a < b, constant time. */
static int less_than(const uint64_t *a, const uint64_t *b, size_t num)
{
	uint64_t borrow = 0;
	for (size_t j = 0; j < num; j++)
		(void)mont_sbb(a[j], b[j], &borrow);
	return (int)borrow;
}

int mont_modexp_check(const uint64_t *r, const uint64_t *base, const uint64_t *exp,
                      size_t exp_limbs, const uint64_t *n, size_t num)
{
	if (!r || !base || !n || (!exp && exp_limbs))
		return MONT_ERR_NULL;
	if (num == 0 || num > MONT_MAX_NUM)
		return MONT_ERR_NUM;
	if (!(n[0] & 1))
		return MONT_ERR_EVEN;
	if (!less_than(base, n, num))
		return MONT_ERR_RANGE;
	return MONT_OK;
}

void mont_modexp_run(uint64_t *r, const uint64_t *base, const uint64_t *exp,
                     size_t exp_limbs, const uint64_t *n, size_t num)
{
	struct mont_ifma k;

	if (mont_ifma_for(num, 1, &k))
		mont_ifma_modexp(1, &r, &base, &exp, &exp_limbs, &n, num, &k);
	else
		mont_modexp_unchecked(r, base, exp, exp_limbs, n, num,
		                      mont_window_bits(num));
}

int mont_modexp(uint64_t *r, const uint64_t *base, const uint64_t *exp,
                size_t exp_limbs, const uint64_t *n, size_t num)
{
	int rc = mont_modexp_check(r, base, exp, exp_limbs, n, num);

	if (rc)
		return rc;
	mont_modexp_run(r, base, exp, exp_limbs, n, num);
	return MONT_OK;
}

int mont_modexp2(uint64_t *r1, const uint64_t *b1, const uint64_t *e1,
                 size_t e1_limbs, const uint64_t *n1,
                 uint64_t *r2, const uint64_t *b2, const uint64_t *e2,
                 size_t e2_limbs, const uint64_t *n2, size_t num)
{
	uint64_t *const r[2] = {r1, r2};
	const uint64_t *const base[2] = {b1, b2}, *const exp[2] = {e1, e2};
	const uint64_t *const n[2] = {n1, n2};
	const size_t exp_limbs[2] = {e1_limbs, e2_limbs};
	uint64_t t[2][MONT_MAX_NUM];
	struct mont_ifma k;
	int rc = mont_modexp_check(r1, b1, e1, e1_limbs, n1, num);

	if (!rc)
		rc = mont_modexp_check(r2, b2, e2, e2_limbs, n2, num);
	if (rc)
		return rc;
	if (mont_ifma_for(num, 2, &k)) {
		mont_ifma_modexp(2, r, base, exp, exp_limbs, n, num, &k);
		return MONT_OK;
	}
	/* One after the other, both into t first: r1 may alias an input of
	 * the second exponentiation. */
	for (int i = 0; i < 2; i++)
		mont_modexp_unchecked(t[i], base[i], exp[i], exp_limbs[i], n[i],
		                      num, mont_window_bits(num));
	memcpy(r1, t[0], num * sizeof *r1);
	memcpy(r2, t[1], num * sizeof *r2);
	mont_wipe(t, sizeof t);
	return MONT_OK;
}
