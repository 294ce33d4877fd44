/* SPDX-License-Identifier: MIT */
/* Constant-time exponentiation through the IFMA kernels: numbers in radix
 * 2^52 (one 52-bit limb per uint64_t), almost Montgomery products (every
 * value stays below 2n, no subtraction until the end), R = 2^(52L).
 * Numbers are converted once per exponentiation: in, the base and R^2 mod
 * n; out, the result. Where the kernels have k->one_f, one exponentiation
 * works modulo n' = n*mu instead (set_modulus) and its last product, mod
 * n, brings the result back. The window method, the masked table lookup
 * and the leading-zero handling are those of mont_modexp_unchecked
 * (modexp.c). */
#include "internal.h"

#define M52 ((UINT64_C(1) << 52) - 1)
/* The largest L: MONT_MAX_NUM 64-bit limbs plus 2 bits, rounded up to 8. */
#define L_MAX (((64 * MONT_MAX_NUM + 2 + 51) / 52 + 7) & ~(size_t)7)

/* Limbs of 52 bits of the num-limb x (x < 2^(52L)); shifts by public
 * amounts only. */
void mont_to52(uint64_t *out, const uint64_t *x, size_t num, size_t L)
{
	for (size_t j = 0; j < L; j++) {
		size_t bit = 52 * j, limb = bit / 64;
		unsigned sh = bit % 64;
		uint64_t v = limb < num ? x[limb] >> sh : 0;
		if (sh > 12 && limb + 1 < num)
			v |= x[limb + 1] << (64 - sh);
		out[j] = v & M52;
	}
}

/* The num-limb value of L normalised 52-bit limbs (below 2^(64 num)). */
void mont_from52(uint64_t *x, const uint64_t *in, size_t L, size_t num)
{
	memset(x, 0, num * sizeof *x);
	for (size_t j = 0; j < L; j++) {
		size_t bit = 52 * j, limb = bit / 64;
		unsigned sh = bit % 64;
		if (limb < num)
			x[limb] |= in[j] << sh;
		if (sh > 12 && limb + 1 < num)
			x[limb + 1] |= in[j] >> (64 - sh);
	}
}

/* x = 2^k mod n for k >= 64 num + 64, with the 64-bit kernels (n
 * public): from 2^(64num+s) mod n with s = 0 (R mod n), a Montgomery
 * squaring doubles s and a modular doubling adds one. The top bits of
 * k - 64num come by doublings, the last SQUARINGS by squarings (and a
 * doubling per bit set): a squaring costs about nine doublings (1024
 * bits: 1472 = 23 * 2^6 takes 23 doublings and 6 squarings where the
 * binary method took 3 and 11). */
#define SQUARINGS 6
void mont_pow2_mod(uint64_t *x, size_t k, const uint64_t *n, size_t num)
{
	const struct mont_impl *kb = mont_impl_for(num);
	const uint64_t n0 = mont_n0(n[0]);
	const size_t t = k - 64 * num;

	mont_r_mod(x, n, num);
	for (size_t d = t >> SQUARINGS; d; d--)
		mont_mod_double(x, n, num);
	for (int bit = SQUARINGS - 1; bit >= 0; bit--) {
		kb->sqr(x, x, n, n0, num);
		if (t >> bit & 1)
			mont_mod_double(x, n, num);
	}
}

/* The state of `ways` exponentiations side by side: each array holds
 * the ways' numbers one after the other, span limbs apart (a multiple of
 * 8: every way starts on a 64-byte line, as the table lookup wants), or
 * for the pair kernel (k->two) interleaved: limb t of way i at 2t + i,
 * both in 2 span limbs; the limbs from L to span 0. */
struct run {
	const struct mont_ifma *k;
	mont_amm_fn *one;	/* the single product: k->one, or k->one_f mod n' */
	int ways;
	size_t L, span;
	_Alignas(64) uint64_t n[2 * L_MAX];
	uint64_t k0[2];
};

/* Where limb t of way i is. */
static size_t at(const struct run *s, int i, size_t t)
{
	return s->k->two ? 2 * t + (size_t)i : (size_t)i * s->span + t;
}

/* Way i of dst = the num-limb x in 52-bit limbs (the rest of dst as it
 * was). */
static void put52(const struct run *s, uint64_t *dst, int i, const uint64_t *x,
                  size_t num)
{
	uint64_t t[L_MAX];

	mont_to52(t, x, num, s->L);
	for (size_t j = 0; j < s->L; j++)
		dst[at(s, i, j)] = t[j];
	mont_wipe(t, sizeof t);
}

/* x = the num-limb value of way i of src (normalised 52-bit limbs). */
static void get52(const struct run *s, uint64_t *x, int i, const uint64_t *src,
                  size_t num)
{
	uint64_t t[L_MAX];

	for (size_t j = 0; j < s->L; j++)
		t[j] = src[at(s, i, j)];
	mont_from52(x, t, s->L, num);
	mont_wipe(t, sizeof t);
}

/* dst = the table entry idx[i] for every way i: one lookup of both ways'
 * limbs when interleaved. */
static void lookup(const struct run *s, uint64_t *dst, const uint64_t *table,
                   size_t entries, const uint64_t *idx)
{
	const size_t stride = s->ways * s->span;

	if (s->k->two) {
		s->k->gather(dst, table, stride, entries, stride, idx[0], idx[1]);
		return;
	}
	for (int i = 0; i < s->ways; i++)
		s->k->gather(dst + i * s->span, table + i * s->span, s->span, entries,
		             stride, idx[i], idx[i]);
}

/* r = a*b/R for every way. */
static void amm(const struct run *s, uint64_t *r, const uint64_t *a,
                const uint64_t *b)
{
	if (s->ways == 1) {
		s->one(r, a, b, s->n, s->k0[0], s->L);
	} else if (s->k->two) {
		s->k->two(r, a, b, s->n, s->k0, s->L);
	} else {
		for (int i = 0; i < 2; i++)
			s->one(r + i * s->span, a + i * s->span, b + i * s->span,
			       s->n + i * s->span, s->k0[i], s->L);
	}
}

/* mu_digits: mu = -n^-1 mod 2^(52 digits) (n odd, digits 1 or 2), in two
 * limbs, from x = mont_n0(n[0]) and for two digits one Newton step mod
 * 2^128: with n*x = -1 + e, e = 0 mod 2^64, x(2 + n*x) times n is e^2 - 1
 * = -1 mod 2^128. */
static void mu_digits(uint64_t mu[2], const uint64_t *n, size_t num, uint64_t x,
                      unsigned digits)
{
	const uint64_t n1 = num > 1 ? n[1] : 0;
	uint64_t hi, q0, q1;

	if (digits == 1) {
		mu[0] = x & M52;
		mu[1] = 0;
		return;
	}
	q0 = mont_mac(n[0], x, 2, 0, &hi);		/* q = n*x + 2 mod 2^128 */
	q1 = hi + n1 * x;
	mu[0] = mont_mac(x, q0, 0, 0, &hi);		/* mu = x*q mod 2^128 */
	mu[1] = (hi + x * q1) & ((UINT64_C(1) << 40) - 1);
}

/* pair_modulus: s->n = n'' = (n' + 1)/2^104 for the two-digit kernel,
 * from s->n = n' (one way, L limbs): n' = -1 mod 2^104, so its limbs 0
 * and 1 are 2^52 - 1 and the + 1 carries into limb 2; n' + 1 <= R/4, so
 * no carry leaves limb L - 1. */
static void pair_modulus(struct run *s)
{
	uint64_t carry = 1;

	for (size_t j = 0; j + 2 < s->L; j++) {
		const uint64_t v = s->n[j + 2] + carry;
		s->n[j] = v & M52;
		carry = v >> 52;
	}
	s->n[s->L - 2] = s->n[s->L - 1] = 0;
}

/* The modulus of way i's products: n, or with k->one_f n' = n*mu (mu =
 * -n^-1 mod 2^(52 digits): n' = -1 mod 2^52, so m = X mod 2^52 needs no
 * product with k0, or mod 2^104, where a trip of two rows takes m = Y mod
 * 2^104 and the kernel reads n'' in its place), two 64-bit limbs longer;
 * every value mod n' is the same mod n. s->n and s->k0 get it, wn its
 * 64-bit limbs; returns their count. */
static size_t set_modulus(struct run *s, int i, uint64_t *wn, const uint64_t *n,
                          size_t num, int prime)
{
	const uint64_t n0 = mont_n0(n[0]);
	size_t wnum = num;

	s->one = prime ? s->k->one_f : s->L == s->k->L ? s->k->one : s->k->one_lf;
	s->k0[i] = prime ? 1 : n0 & M52;
	if (prime) {
		uint64_t mu[2], carry = 0;
		mu_digits(mu, n, num, n0, s->k->digits);
		for (size_t j = 0; j < num; j++)
			wn[j] = mont_mac(n[j], mu[0], 0, carry, &carry);
		wn[num] = carry;
		carry = 0;
		for (size_t j = 0; j < num; j++)
			wn[j + 1] = mont_mac(n[j], mu[1], wn[j + 1], carry, &carry);
		wn[num + 1] = carry;
		wnum += 2;
	} else {
		memcpy(wn, n, num * sizeof *wn);
	}
	put52(s, s->n, i, wn, wnum);
	if (prime && s->k->digits == 2)
		pair_modulus(s);
	return wnum;
}

/* r = a*a/R for every way: the pair square, or the single one (modulo n
 * at L limbs) for each way, where there is one. */
static void asqr(const struct run *s, uint64_t *r, const uint64_t *a)
{
	if (s->ways == 2 && s->k->sqr2) {
		s->k->sqr2(r, a, a, s->n, s->k0, s->L);
	} else if (!s->k->two && s->k->sqr1 && s->one == s->k->one) {
		for (int i = 0; i < s->ways; i++)
			s->k->sqr1(r + i * s->span, a + i * s->span, a + i * s->span,
			           s->n + i * s->span, s->k0[i], s->L);
	} else {
		amm(s, r, a, a);
	}
}

void mont_ifma_modexp(int ways, uint64_t *const *r, const uint64_t *const *base,
                      const uint64_t *const *exp, const size_t *exp_limbs,
                      const uint64_t *const *n, size_t num,
                      const struct mont_ifma *k)
{
	_Alignas(64) uint64_t table[MONT_TABLE_LIMBS];
	_Alignas(64) uint64_t acc[2 * L_MAX], power[2 * L_MAX];
	uint64_t plain[2][MONT_MAX_NUM + 2], wn[MONT_MAX_NUM + 2], idx[2];
	const int prime = k->one_f != NULL && ways == 1;
	const size_t L = prime ? k->lf : k->L, span = k->span, stride = ways * span;
	struct run s = {.k = k, .ways = ways, .L = L, .span = span};
	/* an entry holds every way's power: the ways share the 32 KiB */
	const unsigned window = mont_window_fits(stride, 5, MONT_TABLE_LIMBS);
	const size_t entries = (size_t)1 << window;
	size_t windows = 0;
#define ENTRY(e) (table + (e) * stride)

	/* entries 0 and 1 and power get L limbs per way: the rest is 0 */
	memset(ENTRY(0), 0, 2 * stride * sizeof *table);
	memset(power, 0, stride * sizeof *power);
	for (int i = 0; i < ways; i++) {
		size_t w = (64 * exp_limbs[i] + window - 1) / window;
		if (w > windows)
			windows = w;
		size_t wnum = set_modulus(&s, i, wn, n[i], num, prime);
		/* entry 1 = the base, entry 0 = 1, power = R^2 mod n (or n') */
		mont_pow2_mod(plain[0], 104 * L, wn, wnum);
		put52(&s, power, i, plain[0], wnum);
		put52(&s, ENTRY(1), i, base[i], num);
		ENTRY(0)[at(&s, i, 0)] = 1;
	}
	amm(&s, ENTRY(1), ENTRY(1), power);	/* base*R */
	amm(&s, ENTRY(0), ENTRY(0), power);	/* R */
	for (size_t e = 2; e < entries; e++)	/* even: a square */
		if (e % 2)
			amm(&s, ENTRY(e), ENTRY(e / 2), ENTRY(e - e / 2));
		else
			asqr(&s, ENTRY(e), ENTRY(e / 2));

	/* acc = table[top window], then per window: acc^(2^w) * table[bits] */
	for (size_t j = windows; j--; ) {
		uint64_t *dst = j + 1 == windows ? acc : power;
		if (j + 1 < windows)
			for (unsigned q = 0; q < window; q++)
				asqr(&s, acc, acc);
		for (int i = 0; i < ways; i++)
			idx[i] = mont_window_at(exp[i], exp_limbs[i], j * window, window);
		lookup(&s, dst, table, entries, idx);
		if (j + 1 < windows)
			amm(&s, acc, acc, power);
	}
	if (!windows)	/* exponent 0 (or no limbs): acc = 1 in Montgomery form */
		memcpy(acc, ENTRY(0), stride * sizeof *acc);
#undef ENTRY

	/* out of Montgomery form: acc * 1 / R <= n, modulo n itself (acc <
	 * 2n' <= R/2 keeps that bound); then one subtraction */
	memset(power, 0, stride * sizeof *power);
	for (int i = 0; i < ways; i++)
		power[at(&s, i, 0)] = 1;
	if (prime)
		set_modulus(&s, 0, wn, n[0], num, 0);
	amm(&s, acc, acc, power);
	for (int i = 0; i < ways; i++) {
		get52(&s, plain[i], i, acc, num);
		mont_reduce_once(plain[i], plain[i], 0, n[i], num);
	}
	for (int i = 0; i < ways; i++)	/* last: r may alias any input */
		memcpy(r[i], plain[i], num * sizeof *plain[i]);

	mont_wipe(table, entries * stride * sizeof *table);
	mont_wipe(acc, sizeof acc);
	mont_wipe(power, sizeof power);
	mont_wipe(plain, sizeof plain);
	mont_wipe(idx, sizeof idx);
}
