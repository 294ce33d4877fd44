/* SPDX-License-Identifier: MIT */
/* The contenders: our backends through mont/mont.h, OpenSSL at its API and
 * at its raw x86-64 kernels, and GMP's mpz_powm_sec. Everything a timed
 * loop needs (contexts, tables, R^2) is prepared before it. */
#include <gmp.h>
#include <openssl/bn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "mont.h"

_Static_assert(sizeof(BN_ULONG) == sizeof(uint64_t), "64-bit BN_ULONG");

/* Raw kernels exported by the static libcrypto.a (hidden in the shared
 * library). Prototypes as OpenSSL 3.0 declares them in crypto/bn. */
int bn_mul_mont(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
		const BN_ULONG *np, const BN_ULONG *n0, int num);
void bn_mul_mont_gather5(BN_ULONG *rp, const BN_ULONG *ap, const void *table,
			 const BN_ULONG *np, const BN_ULONG *n0, int num,
			 int power);
void bn_scatter5(const BN_ULONG *inp, size_t num, void *table, size_t power);
void bn_gather5(BN_ULONG *out, size_t num, void *table, size_t power);
void bn_power5(BN_ULONG *rp, const BN_ULONG *ap, const void *table,
	       const BN_ULONG *np, const BN_ULONG *n0, int num, int power);
int bn_get_bits5(const BN_ULONG *ap, int off);
/* OpenSSL 3.0's AVX-512 IFMA RSA-CRT path (crypto/bn/rsaz_exp_x2.c, as its
 * comment documents it): res_i = base_i^exp_i mod m_i for two moduli of
 * factor_size bits (3.0: 1024 only), all in radix 2^64; rr_i = R^2 mod
 * m_i with R = 2^factor_size, k0_i = -m_i^-1 mod 2^64. Returns 1, or 0 on
 * failure. The eligibility check reads OPENSSL_ia32cap (IFMA, VL, BW...). */
int ossl_rsaz_mod_exp_avx512_x2(BN_ULONG *res1, const BN_ULONG *base1,
				const BN_ULONG *exp1, const BN_ULONG *m1,
				const BN_ULONG *rr1, BN_ULONG k0_1,
				BN_ULONG *res2, const BN_ULONG *base2,
				const BN_ULONG *exp2, const BN_ULONG *m2,
				const BN_ULONG *rr2, BN_ULONG k0_2,
				int factor_size);
int ossl_rsaz_avx512ifma_eligible(void);

static int all_ops(enum op op) { (void)op; return 1; }
/* batch8 is mont_modexp_batch's: ours alone */
static int not_batch(enum op op) { return op != OP_BATCH; }
static int one_at_a_time(enum op op) { return op != OP_EXP2 && op != OP_BATCH; }
static int exp_only(enum op op) { return op == OP_EXP; }
static int exp2_only(enum op op) { return op == OP_EXP2; }

/* ---- what ours, ossl-raw and ossl-x2 share: they work on limb arrays,
 * allocated with their state, so free() releases both (ossl-raw frees its
 * aligned table first); one reset and one result serve all three ---- */

struct limbs {
	const struct operands *o;
	uint64_t *x;            /* mul, sqr: the chained value, num limbs */
	uint64_t *r;            /* modexp: num limbs; modexp2: 2*num; ours: 8*num */
	int fail;               /* a call reported failure */
};

/* A state of `size` bytes starting with a struct limbs, followed by x, r
 * and `extra` arrays of num limbs (at *extra_at), all zero. `size` is a
 * multiple of the state's alignment (a pointer's at least), so the limbs
 * right after it are aligned too. */
static void *limbs_new(size_t size, const struct operands *o, size_t extra,
		       uint64_t **extra_at)
{
	struct limbs *s = calloc(1, size + (3 + extra) * o->num * 8);
	if (!s)
		return NULL;
	s->o = o;
	s->x = (uint64_t *)((char *)s + size);
	s->r = s->x + o->num;
	if (extra_at)
		*extra_at = s->r + 2 * o->num;
	return s;
}

static void limbs_reset(void *p)
{
	struct limbs *s = p;
	memcpy(s->x, s->o->a, s->o->num * 8);
	s->fail = 0;
}

static int limbs_result(void *p, enum op op, uint64_t *out)
{
	struct limbs *s = p;
	memcpy(out, OP_IS_EXP(op) ? s->r : s->x,
	       OP_RESULTS(op) * s->o->num * 8);
	return s->fail ? -1 : 0;
}

/* ---- ours: mont/mont.h, one backend at a time via mont_select() ---- */

static const char *ours_unavailable(const struct contender *c)
{
	switch (mont_select(c->backend)) {
	case 0:
		/* mont_backend() reports what really runs */
		return strcmp(mont_backend(), c->backend) ? "selected, but "
			"mont_backend() disagrees" : NULL;
	case -2:
		return "not built";
	case -3:
		return "CPU lacks it";
	default:
		return "unknown to mont_select";
	}
}

static void ours_activate(const struct contender *c)
{
	mont_select(c->backend);
}

static void *ours_prepare(const struct operands *o)
{
	return limbs_new(sizeof(struct limbs), o, 6, NULL);	/* r: batch8's 8 lanes */
}

/* batch8: the lanes alternate modexp2's two sets, the results r + i*num. */
static int ours_batch(struct limbs *s)
{
	const struct operands *o = s->o;
	uint64_t *r[8];
	const uint64_t *b[8], *e[8], *n[8];

	for (int i = 0; i < 8; i++) {
		r[i] = s->r + i * o->num;
		b[i] = i % 2 ? o->b : o->a;
		e[i] = i % 2 ? o->e2 : o->e;
		n[i] = i % 2 ? o->n2 : o->n;
	}
	return mont_modexp_batch(8, r, b, e, o->num, n, o->num);
}

static void ours_run(void *p, enum op op, unsigned long it)
{
	struct limbs *s = p;
	const struct operands *o = s->o;
	switch (op) {
	case OP_MUL:
		while (it--)
			mont_mul(s->x, s->x, o->b, o->n, o->n0, o->num);
		break;
	case OP_SQR:
		while (it--)
			mont_sqr(s->x, s->x, o->n, o->n0, o->num);
		break;
	case OP_BATCH:
		while (it--)
			s->fail |= ours_batch(s) != 0;
		break;
	case OP_EXP2:
		while (it--)
			s->fail |= mont_modexp2(s->r, o->a, o->e, o->num, o->n,
						s->r + o->num, o->b, o->e2, o->num,
						o->n2, o->num) != 0;
		break;
	default:
		while (it--)
			s->fail |= mont_modexp(s->r, o->a, o->e, o->num, o->n,
					       o->num) != 0;
		break;
	}
}

/* ---- OpenSSL API: BN_mod_mul_montgomery, BN_mod_exp_mont_consttime ---- */

/* One r = base^e mod n with its Montgomery context: modexp runs the
 * first, modexp2 (the RSA-CRT pair as two calls) both. */
struct api_exp {
	BN_MONT_CTX *mont;
	BIGNUM *n, *base, *e, *r;
};

struct api {
	size_t num;
	BN_CTX *ctx;
	BIGNUM *x, *b;          /* mul: x <- x*b; sqr: x <- x*x */
	struct api_exp exp[2];  /* a^e mod n; b^e2 mod n2 */
	int fail;
};

static BIGNUM *bn_of(const uint64_t *p, size_t num)
{
	/* limbs are little-endian 64-bit words: little-endian bytes on x86 */
	return BN_lebin2bn((const unsigned char *)p, (int)(num * 8), NULL);
}

static int api_exp_prepare(struct api_exp *x, const uint64_t *n,
			   const uint64_t *base, const uint64_t *e, size_t num,
			   BN_CTX *ctx)
{
	x->mont = BN_MONT_CTX_new();
	x->n = bn_of(n, num);
	x->base = bn_of(base, num);
	x->e = bn_of(e, num);
	x->r = BN_new();
	return x->mont && x->n && x->base && x->e && x->r
		&& BN_MONT_CTX_set(x->mont, x->n, ctx) ? 0 : -1;
}

static void api_exp_free(struct api_exp *x)
{
	BIGNUM *bn[] = { x->n, x->base, x->e, x->r };
	for (size_t i = 0; i < sizeof bn / sizeof *bn; i++)
		BN_free(bn[i]);
	BN_MONT_CTX_free(x->mont);
}

static void api_release(void *p)
{
	struct api *s = p;
	api_exp_free(&s->exp[0]);
	api_exp_free(&s->exp[1]);
	BN_free(s->x);
	BN_free(s->b);
	BN_CTX_free(s->ctx);
	free(s);
}

static void *api_prepare(const struct operands *o)
{
	struct api *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->num = o->num;
	s->ctx = BN_CTX_new();
	s->x = BN_new();
	s->b = bn_of(o->b, o->num);
	if (!s->ctx || !s->x || !s->b
	    || api_exp_prepare(&s->exp[0], o->n, o->a, o->e, o->num, s->ctx)
	    || api_exp_prepare(&s->exp[1], o->n2, o->b, o->e2, o->num, s->ctx)) {
		api_release(s);
		return NULL;
	}
	return s;
}

static void api_reset(void *p)
{
	struct api *s = p;
	s->fail = !BN_copy(s->x, s->exp[0].base);      /* x <- a */
}

/* 1 when BN_mod_exp_mont_consttime reports failure */
static int api_exp_failed(struct api *s, int i)
{
	struct api_exp *x = &s->exp[i];
	return !BN_mod_exp_mont_consttime(x->r, x->base, x->e, x->n, s->ctx,
					  x->mont);
}

static void api_run(void *p, enum op op, unsigned long it)
{
	struct api *s = p;
	switch (op) {
	case OP_MUL:
		while (it--)
			s->fail |= !BN_mod_mul_montgomery(s->x, s->x, s->b,
							  s->exp[0].mont, s->ctx);
		break;
	case OP_SQR:
		while (it--)
			s->fail |= !BN_mod_mul_montgomery(s->x, s->x, s->x,
							  s->exp[0].mont, s->ctx);
		break;
	case OP_EXP2:	/* the RSA-CRT pair as two calls */
		while (it--)
			s->fail |= api_exp_failed(s, 0) | api_exp_failed(s, 1);
		break;
	default:
		while (it--)
			s->fail |= api_exp_failed(s, 0);
		break;
	}
}

static int api_result(void *p, enum op op, uint64_t *out)
{
	struct api *s = p;
	for (int i = 0; i < (op == OP_EXP2 ? 2 : 1); i++)
		if (BN_bn2lebinpad(OP_IS_EXP(op) ? s->exp[i].r : s->x,
				   (unsigned char *)(out + i * s->num),
				   (int)(s->num * 8)) < 0)
			return -1;
	return s->fail ? -1 : 0;
}

/* ---- OpenSSL raw kernels: bn_mul_mont; modexp as BN_mod_exp_mont_
 * consttime drives bn_power5 on x86-64: a 32-entry table in the
 * scatter5/gather5 layout, then one bn_power5 (5 squarings and a
 * multiplication by a gathered entry) per 5 exponent bits ---- */

enum { RAW_MORE = 4 };   /* rr, one, t, am */
struct raw {
	struct limbs h;
	BN_ULONG n0[2];         /* OpenSSL's n0 is two words; the 2nd is 0 */
	uint64_t *rr, *one, *t, *am;    /* num limbs each, after x and r */
	void *table;            /* 32*num limbs, 64-byte aligned */
};

static void raw_release(void *p)
{
	struct raw *s = p;
	free(s->table);
	free(s);
}

/* R^2 mod n, so a -> a*R is one Montgomery multiplication. */
static int r_squared_of(uint64_t *out, const struct operands *o,
			const uint64_t *modulus)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *rr = BN_new(), *n = bn_of(modulus, o->num);
	int ok = ctx && rr && n && BN_set_bit(rr, (int)(2 * o->bits))
		&& BN_mod(rr, rr, n, ctx)
		&& BN_bn2lebinpad(rr, (unsigned char *)out,
				  (int)(o->num * 8)) >= 0;
	BN_free(rr);
	BN_free(n);
	BN_CTX_free(ctx);
	return ok ? 0 : -1;
}

static void *raw_prepare(const struct operands *o)
{
	uint64_t *more;
	struct raw *s = limbs_new(sizeof *s, o, RAW_MORE, &more);
	if (!s)
		return NULL;
	uint64_t **const part[RAW_MORE] = { &s->rr, &s->one, &s->t, &s->am };
	split_limbs(more, o->num, part, RAW_MORE);
	s->n0[0] = o->n0;
	s->table = aligned_alloc(64, 32 * o->num * 8);
	if (!s->table || r_squared_of(s->rr, o, o->n)) {
		raw_release(s);
		return NULL;
	}
	s->one[0] = 1;
	return s;
}

static void raw_modexp(struct raw *s)
{
	const struct operands *o = s->h.o;
	const BN_ULONG *n = o->n, *n0 = s->n0;
	int num = (int)o->num;
	uint64_t *t = s->t, *am = s->am;

	/* bn_power5 needs num % 8 == 0 (OpenSSL falls back otherwise) */
	if (num % 8) {
		s->h.fail = 1;
		return;
	}
	s->h.fail |= !bn_mul_mont(am, o->a, s->rr, n, n0, num);  /* a*R */
	s->h.fail |= !bn_mul_mont(t, s->one, s->rr, n, n0, num); /* R */
	bn_scatter5(t, o->num, s->table, 0);
	bn_scatter5(am, o->num, s->table, 1);
	for (int i = 2; i < 32; i++) {
		if (i % 2) {
			bn_mul_mont_gather5(t, am, s->table, n, n0, num, i - 1);
		} else {
			bn_gather5(t, o->num, s->table, (size_t)i / 2);
			s->h.fail |= !bn_mul_mont(t, t, t, n, n0, num);
		}
		bn_scatter5(t, o->num, s->table, (size_t)i);
	}
	/* the top window holds what 5-bit windows leave over: 1..5 bits */
	int bits = 64 * num, w0 = (bits - 1) % 5 + 1;
	bits -= w0;
	bn_gather5(t, o->num, s->table, o->e[num - 1] >> (64 - w0));
	while (bits > 0) {
		bits -= 5;
		bn_power5(t, t, s->table, n, n0, num, bn_get_bits5(o->e, bits));
	}
	/* out of the Montgomery domain; also reduces bn_power5's "almost
	 * Montgomery" result below n */
	s->h.fail |= !bn_mul_mont(s->h.r, t, s->one, n, n0, num);
}

static void raw_run(void *p, enum op op, unsigned long it)
{
	struct raw *s = p;
	const struct operands *o = s->h.o;
	uint64_t *x = s->h.x;
	int num = (int)o->num;
	switch (op) {
	case OP_MUL:
		while (it--)
			s->h.fail |= !bn_mul_mont(x, x, o->b, o->n, s->n0, num);
		break;
	case OP_SQR:    /* ap == bp: bn_mul_mont's squaring path */
		while (it--)
			s->h.fail |= !bn_mul_mont(x, x, x, o->n, s->n0, num);
		break;
	default:
		while (it--)
			raw_modexp(s);
		break;
	}
}

/* ---- OpenSSL's IFMA pair: ossl_rsaz_mod_exp_avx512_x2 ---- */

struct x2 {
	struct limbs h;         /* r: the pair's results */
	uint64_t *rr, *rr2;     /* R^2 mod n, R^2 mod n2 */
};

static void *x2_prepare(const struct operands *o)
{
	uint64_t *more;
	struct x2 *s = limbs_new(sizeof *s, o, 2, &more);
	if (!s)
		return NULL;
	s->rr = more;
	s->rr2 = more + o->num;
	if (r_squared_of(s->rr, o, o->n) || r_squared_of(s->rr2, o, o->n2)) {
		free(s);
		return NULL;
	}
	return s;
}

static const char *x2_unavailable(const struct contender *c)
{
	(void)c;
	return ossl_rsaz_avx512ifma_eligible() ? NULL : "CPU lacks it";
}

static const char *x2_unavailable_at(const struct contender *c, unsigned bits)
{
	(void)c;
	return bits == 1024 ? NULL : "1024 bits only (OpenSSL 3.0)";
}

static void x2_run(void *p, enum op op, unsigned long it)
{
	struct x2 *s = p;
	const struct operands *o = s->h.o;
	uint64_t *r = s->h.r;
	(void)op;
	while (it--)
		s->h.fail |= !ossl_rsaz_mod_exp_avx512_x2(r, o->a, o->e, o->n,
				s->rr, o->n0, r + o->num, o->b, o->e2, o->n2,
				s->rr2, o->n0_2, (int)o->bits);
}

/* ---- GMP: mpz_powm_sec ---- */

struct gmp {
	size_t num;
	mpz_t n, a, e, r;
};

static void *gmp_prepare(const struct operands *o)
{
	struct gmp *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->num = o->num;
	mpz_inits(s->n, s->a, s->e, s->r, NULL);
	mpz_import(s->n, o->num, -1, 8, 0, 0, o->n);
	mpz_import(s->a, o->num, -1, 8, 0, 0, o->a);
	mpz_import(s->e, o->num, -1, 8, 0, 0, o->e);
	return s;
}

static void gmp_reset(void *p)
{
	(void)p;
}

static void gmp_run(void *p, enum op op, unsigned long it)
{
	struct gmp *s = p;
	(void)op;
	while (it--)
		mpz_powm_sec(s->r, s->a, s->e, s->n);
}

static int gmp_result(void *p, enum op op, uint64_t *out)
{
	struct gmp *s = p;
	(void)op;
	if (mpz_sizeinbase(s->r, 2) > 64 * s->num)
		return -1;
	memset(out, 0, s->num * 8);
	mpz_export(out, NULL, -1, 8, 0, 0, s->r);
	return 0;
}

static void gmp_release(void *p)
{
	struct gmp *s = p;
	mpz_clears(s->n, s->a, s->e, s->r, NULL);
	free(s);
}

#define OURS(name) { name, "mont_mul / mont_sqr / mont_modexp / mont_modexp2 / " \
	"mont_modexp_batch (batch8) " \
	"after mont_select(\"" name "\")", all_ops, \
	name, ours_prepare, limbs_reset, ours_run, limbs_result, free, \
	ours_unavailable, ours_activate, NULL }

const struct contender contenders[] = {
	OURS("ifma"),
	OURS("adx"),
	OURS("mulq"),
	OURS("c"),
	{ "amm52", "montk_amm52_K, the IFMA product mont_modexp runs (radix "
	  "2^52, R = 2^(52L); checked as x*(2^(52L)/2^bits)^j)", amm_has, NULL,
	  amm_prepare, amm_reset, amm_run, amm_result, amm_release,
	  amm_unavailable, NULL, amm_unavailable_at },
	{ "ossl-api", "BN_mod_mul_montgomery / BN_mod_exp_mont_consttime "
	  "(modexp2: two of them)",
	  not_batch, NULL, api_prepare, api_reset, api_run, api_result,
	  api_release, NULL, NULL, NULL },
	{ "ossl-raw", "bn_mul_mont / bn_power5 loop on a gather5 table",
	  one_at_a_time, NULL, raw_prepare, limbs_reset, raw_run, limbs_result,
	  raw_release, NULL, NULL, NULL },
	{ "ossl-x2", "ossl_rsaz_mod_exp_avx512_x2 (OpenSSL's AVX-512 IFMA "
	  "RSA-CRT pair)", exp2_only, NULL, x2_prepare, limbs_reset, x2_run,
	  limbs_result, free, x2_unavailable, NULL, x2_unavailable_at },
	{ "gmp", "mpz_powm_sec", exp_only, NULL, gmp_prepare, gmp_reset,
	  gmp_run, gmp_result, gmp_release, NULL, NULL, NULL },
};
const size_t ncontenders = sizeof contenders / sizeof contenders[0];
_Static_assert(sizeof contenders / sizeof contenders[0] <= MAX_CONTENDERS,
	       "raise MAX_CONTENDERS");

int contender_is_openssl(const struct contender *c)
{
	return c->prepare == api_prepare || c->prepare == raw_prepare;
}
