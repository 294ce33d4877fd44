/* Random operands from a seed (so a re-executed child gets the same ones)
 * and the GMP reference every contender is checked against. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

const char *const op_name[OP_COUNT] = { "mul", "sqr", "modexp" };

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

int operands_make(struct operands *o, unsigned bits, uint64_t seed)
{
	size_t num = bits / 64;
	uint64_t s = seed ^ ((uint64_t)bits << 32);
	memset(o, 0, sizeof *o);
	o->bits = bits;
	o->num = num;
	o->n = calloc(num, 8);
	o->a = calloc(num, 8);
	o->b = calloc(num, 8);
	o->e = calloc(num, 8);
	if (!o->n || !o->a || !o->b || !o->e) {
		operands_free(o);
		return -1;
	}
	fill(o->n, num, &s);
	fill(o->a, num, &s);
	fill(o->b, num, &s);
	fill(o->e, num, &s);
	o->n[0] |= 1;
	o->n[num - 1] |= 1ull << 63;    /* exactly `bits` bits: R = 2^bits */
	o->a[num - 1] >>= 1;            /* below 2^(bits-1), so below n */
	o->b[num - 1] >>= 1;
	o->e[num - 1] |= 1ull << 63;    /* full-length exponent */
	/* n0 = -n^-1 mod 2^64 by Newton's iteration (each step doubles the
	 * correct low bits; n*n == 1 mod 8 gives 3 to start from). */
	uint64_t inv = o->n[0];
	for (int i = 0; i < 5; i++)
		inv *= 2 - o->n[0] * inv;
	o->n0 = -inv;
	return 0;
}

void operands_free(struct operands *o)
{
	free(o->n);
	free(o->a);
	free(o->b);
	free(o->e);
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
	if (op == OP_EXP) {
		mpz_powm(x, x, e, n);
	} else {
		for (unsigned i = 0; i < k; i++) {
			mpz_mul(x, x, op == OP_MUL ? b : x);
			mpz_mul(x, x, rinv);
			mpz_mod(x, x, n);
		}
	}
	from_mpz(out, o->num, x);
	mpz_clears(n, x, b, e, rinv, NULL);
}
