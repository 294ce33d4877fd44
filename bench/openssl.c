/* SPDX-License-Identifier: MIT */
/* The contenders of one OpenSSL: its API (BN_mod_mul_montgomery,
 * BN_mod_exp_mont_consttime) and its AVX-512 IFMA RSA-CRT pair. Built
 * once against the libcrypto montbench links (Debian's 3.0, tag 3), and
 * with `make bench-peers` again against a second one (4.0.2, tag 4) whose
 * symbols are then made local to one object (bench/README.md), so the
 * two live in one process. Every function is OSSL_FN(OSSL_TAG, name). */
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <stdlib.h>
#include <string.h>
#ifndef OSSL_TAG
#define OSSL_TAG 3
#elif OSSL_TAG == 4
#define BENCH_OSSL4	/* bench.h declares the tag-4 functions */
#endif
#include "bench.h"

#define FN(name) OSSL_FN(OSSL_TAG, name)

_Static_assert(sizeof(BN_ULONG) == sizeof(uint64_t), "64-bit BN_ULONG");

/* OpenSSL's AVX-512 IFMA RSA-CRT path (crypto/bn/rsaz_exp_x2.c, as its
 * comment documents it; the same prototype in 3.0 and 4.0): res_i =
 * base_i^exp_i mod m_i for two moduli of factor_size bits, all in radix
 * 2^64; rr_i = R^2 mod m_i with R = 2^factor_size, k0_i = -m_i^-1 mod
 * 2^64. Returns 1, or 0 on failure, among them a factor size it has no
 * kernels for. The eligibility check reads OPENSSL_ia32cap. */
int ossl_rsaz_mod_exp_avx512_x2(BN_ULONG *res1, const BN_ULONG *base1,
				const BN_ULONG *exp1, const BN_ULONG *m1,
				const BN_ULONG *rr1, BN_ULONG k0_1,
				BN_ULONG *res2, const BN_ULONG *base2,
				const BN_ULONG *exp2, const BN_ULONG *m2,
				const BN_ULONG *rr2, BN_ULONG k0_2,
				int factor_size);
int ossl_rsaz_avx512ifma_eligible(void);

const char *FN(version)(void)
{
	return OpenSSL_version(OPENSSL_VERSION);
}

/* ---- the API ---- */

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

void FN(api_release)(void *p)
{
	struct api *s = p;
	api_exp_free(&s->exp[0]);
	api_exp_free(&s->exp[1]);
	BN_free(s->x);
	BN_free(s->b);
	BN_CTX_free(s->ctx);
	free(s);
}

void *FN(api_prepare)(const struct operands *o)
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
		FN(api_release)(s);
		return NULL;
	}
	return s;
}

void FN(api_reset)(void *p)
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

void FN(api_run)(void *p, enum op op, unsigned long it)
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

int FN(api_result)(void *p, enum op op, uint64_t *out)
{
	struct api *s = p;
	for (int i = 0; i < (op == OP_EXP2 ? 2 : 1); i++)
		if (BN_bn2lebinpad(OP_IS_EXP(op) ? s->exp[i].r : s->x,
				   (unsigned char *)(out + i * s->num),
				   (int)(s->num * 8)) < 0)
			return -1;
	return s->fail ? -1 : 0;
}

/* R^2 mod n, so a -> a*R is one Montgomery multiplication. */
int FN(r_squared_of)(uint64_t *out, const struct operands *o,
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

/* ---- the IFMA pair: ossl_rsaz_mod_exp_avx512_x2 ---- */

struct x2 {
	struct limbs h;         /* r: the pair's results */
	uint64_t *rr, *rr2;     /* R^2 mod n, R^2 mod n2 */
};

void *FN(x2_prepare)(const struct operands *o)
{
	uint64_t *more;
	struct x2 *s = limbs_new(sizeof *s, o, 2, &more);
	if (!s)
		return NULL;
	s->rr = more;
	s->rr2 = more + o->num;
	if (FN(r_squared_of)(s->rr, o, o->n) || FN(r_squared_of)(s->rr2, o, o->n2)) {
		free(s);
		return NULL;
	}
	return s;
}

const char *FN(x2_unavailable)(const struct contender *c)
{
	(void)c;
	return ossl_rsaz_avx512ifma_eligible() ? NULL : "CPU lacks it";
}

/* Which factor sizes this OpenSSL has kernels for, asked of it: a call
 * with a harmless pair (m = 2^bits - 1, so k0 = 1; base, exponent and
 * R^2 zero) fails at a size it lacks. */
const char *FN(x2_unavailable_at)(const struct contender *c, unsigned bits)
{
	size_t num = bits / 64;
	uint64_t *w = calloc(4 * num, sizeof *w);	/* m, zero, res1, res2 */
	int ok;
	(void)c;
	if (!w)
		return "out of memory";
	memset(w, 0xff, num * sizeof *w);
	ok = ossl_rsaz_mod_exp_avx512_x2(w + 2 * num, w + num, w + num, w,
					 w + num, 1, w + 3 * num, w + num,
					 w + num, w, w + num, 1, (int)bits);
	free(w);
	return ok ? NULL : "this OpenSSL refuses the size";
}

void FN(x2_run)(void *p, enum op op, unsigned long it)
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
