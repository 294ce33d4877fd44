/* SPDX-License-Identifier: MIT */
/* The contenders: our backends through mont/mont.h, OpenSSL at its API
 * (bench/openssl.c) and at its raw x86-64 kernels, and GMP's mpz_powm_sec. Everything a timed
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

static int all_ops(enum op op) { (void)op; return 1; }
/* batch8 is mont_modexp_batch's: ours alone */
static int not_batch(enum op op) { return op != OP_BATCH; }
static int one_at_a_time(enum op op) { return op != OP_EXP2 && op != OP_BATCH; }
static int exp_only(enum op op) { return op == OP_EXP; }
static int exp2_only(enum op op) { return op == OP_EXP2; }

/* ---- struct limbs (bench.h) ---- */

/* A state of `size` bytes starting with a struct limbs, followed by x, r
 * and `extra` arrays of num limbs (at *extra_at), all zero. `size` is a
 * multiple of the state's alignment (a pointer's at least), so the limbs
 * right after it are aligned too. */
void *limbs_new(size_t size, const struct operands *o, size_t extra,
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

void limbs_reset(void *p)
{
	struct limbs *s = p;
	memcpy(s->x, s->o->a, s->o->num * 8);
	s->fail = 0;
}

int limbs_result(void *p, enum op op, uint64_t *out)
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
	if (!s->table || OSSL_FN(3, r_squared_of)(s->rr, o, o->n)) {
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

/* One OpenSSL's contenders (bench/openssl.c, built per tag). */
#define OSSL_API(tag, name) { name, "BN_mod_mul_montgomery / " \
	"BN_mod_exp_mont_consttime (modexp2: two of them)", not_batch, NULL, \
	OSSL_FN(tag, api_prepare), OSSL_FN(tag, api_reset), \
	OSSL_FN(tag, api_run), OSSL_FN(tag, api_result), \
	OSSL_FN(tag, api_release), NULL, NULL, NULL }
#define OSSL_X2(tag, name) { name, "ossl_rsaz_mod_exp_avx512_x2 (OpenSSL's " \
	"AVX-512 IFMA RSA-CRT pair)", exp2_only, NULL, \
	OSSL_FN(tag, x2_prepare), limbs_reset, OSSL_FN(tag, x2_run), \
	limbs_result, free, OSSL_FN(tag, x2_unavailable), NULL, \
	OSSL_FN(tag, x2_unavailable_at) }

const struct contender contenders[] = {
	OURS("ifma"),
	OURS("adx"),
	OURS("mulq"),
	OURS("c"),
	{ "amm52", "montk_amm52_K, the IFMA product mont_modexp runs (radix "
	  "2^52, R = 2^(52L); montk_amm52f_K modulo n*mu, a limb or two more, where "
	  "mont_modexp works so here; montk_ams52_K for sqr where mont_modexp "
	  "squares with it; checked as x*(2^(52L)/2^bits)^j)", amm_has, NULL,
	  amm_prepare, amm_reset, amm_run, amm_result, amm_release,
	  amm_unavailable, NULL, amm_unavailable_at },
	{ "amm52x2", "montk_amm52x2p_K (and montk_sqr52x2p_K for sqr where "
	  "mont_modexp2 squares with it), the packed IFMA pair mont_modexp2 "
	  "runs: amm52's chain mod n and, checked beside it, mod n2", amm_has,
	  NULL, amm2_prepare, amm_reset, amm_run, amm_result, amm_release,
	  amm_unavailable, NULL, amm2_unavailable_at },
	OSSL_API(3, "ossl-api"),
	{ "ossl-raw", "bn_mul_mont / bn_power5 loop on a gather5 table",
	  one_at_a_time, NULL, raw_prepare, limbs_reset, raw_run, limbs_result,
	  raw_release, NULL, NULL, NULL },
	OSSL_X2(3, "ossl-x2"),
#ifdef BENCH_OSSL4
	OSSL_API(4, "ossl4-api"),
	OSSL_X2(4, "ossl4-x2"),
#endif
	{ "gmp", "mpz_powm_sec", exp_only, NULL, gmp_prepare, gmp_reset,
	  gmp_run, gmp_result, gmp_release, NULL, NULL, NULL },
};
const size_t ncontenders = sizeof contenders / sizeof contenders[0];
_Static_assert(sizeof contenders / sizeof contenders[0] <= MAX_CONTENDERS,
	       "raise MAX_CONTENDERS");

int contender_is_openssl(const struct contender *c)
{
	return c->prepare == OSSL_FN(3, api_prepare) || c->prepare == raw_prepare;
}
