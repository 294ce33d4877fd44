/* SPDX-License-Identifier: MIT */
/* Random operands from a seed (so a re-executed child gets the same ones)
 * and the GMP reference every contender is checked against. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

const char *const op_name[OP_COUNT] = { "mul", "sqr", "modexp", "modexp2", "batch8" };

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void fill(uint64_t *p, size_t num, uint64_t *s)
{
	for (size_t i = 0; i < num; i++)
		p[i] = splitmix64(s);
}

/* -x^-1 mod 2^64 for odd x by Newton's iteration (each step doubles the
 * correct low bits; x*x == 1 mod 8 gives 3 to start from). */
static uint64_t neg_inverse(uint64_t x)
{
	uint64_t inv = x;
	for (int i = 0; i < 5; i++)
		inv *= 2 - x * inv;
	return -inv;
}

void split_limbs(uint64_t *block, size_t num, uint64_t **const part[],
		 size_t nparts)
{
	for (size_t i = 0; i < nparts; i++)
		*part[i] = block + i * num;
}

int operands_make(struct operands *o, unsigned bits, uint64_t seed)
{
	size_t num = bits / 64;
	uint64_t s = seed ^ ((uint64_t)bits << 32);
	memset(o, 0, sizeof *o);
	o->bits = bits;
	o->num = num;
	/* one block, filled in this order, so operands_free frees one pointer */
	uint64_t **const part[] = { &o->n, &o->a, &o->b, &o->e, &o->n2, &o->e2 };
	size_t nparts = sizeof part / sizeof *part;
	uint64_t *block = calloc(nparts * num, 8);
	if (!block)
		return -1;
	split_limbs(block, num, part, nparts);
	fill(block, nparts * num, &s);
	o->n[0] |= 1;
	o->n[num - 1] |= 1ull << 63;    /* exactly `bits` bits: R = 2^bits */
	o->n2[0] |= 1;
	o->n2[num - 1] |= 1ull << 63;
	o->e2[num - 1] |= 1ull << 63;
	o->a[num - 1] >>= 1;            /* below 2^(bits-1), so below n */
	o->b[num - 1] >>= 1;
	o->e[num - 1] |= 1ull << 63;    /* full-length exponent */
	o->n0 = neg_inverse(o->n[0]);
	o->n0_2 = neg_inverse(o->n2[0]);
	return 0;
}

void operands_free(struct operands *o)
{
	free(o->n);    /* the block operands_make allocated */
	memset(o, 0, sizeof *o);
}

static void to_mpz(mpz_t z, const uint64_t *p, size_t num)
{
	mpz_import(z, num, -1, 8, 0, 0, p);
}

static void from_mpz(uint64_t *p, size_t num, const mpz_t z)
{
	memset(p, 0, num * 8);
	mpz_export(p, NULL, -1, 8, 0, 0, z);
}

void reference(const struct operands *o, enum op op, unsigned k, uint64_t *out)
{
	mpz_t n, x, b, e, rinv;
	mpz_inits(n, x, b, e, rinv, NULL);
	to_mpz(n, o->n, o->num);
	to_mpz(x, o->a, o->num);
	to_mpz(b, o->b, o->num);
	to_mpz(e, o->e, o->num);
	mpz_setbit(rinv, o->bits);
	mpz_invert(rinv, rinv, n);
	if (OP_RESULTS(op) > 1) {
		mpz_t n2, e2;
		mpz_inits(n2, e2, NULL);
		to_mpz(n2, o->n2, o->num);
		to_mpz(e2, o->e2, o->num);
		mpz_powm(x, x, e, n);
		mpz_powm(b, b, e2, n2);
		from_mpz(out + o->num, o->num, b);
		mpz_clears(n2, e2, NULL);
	} else if (op == OP_EXP) {
		mpz_powm(x, x, e, n);
	} else {
		for (unsigned i = 0; i < k; i++) {
			mpz_mul(x, x, op == OP_MUL ? b : x);
			mpz_mul(x, x, rinv);
			mpz_mod(x, x, n);
		}
	}
	from_mpz(out, o->num, x);
	for (unsigned i = 2; i < OP_RESULTS(op); i++)	/* batch8's lanes */
		memcpy(out + i * o->num, out + i % 2 * o->num, o->num * 8);
	mpz_clears(n, x, b, e, rinv, NULL);
}
