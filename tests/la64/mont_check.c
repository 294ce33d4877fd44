/* SPDX-License-Identifier: MIT */
/* libmont's C backend (mont_c_mul, mont_c_sqr) on loongarch64 under
 * qemu-user.  vectors.h (written by the test) holds NCASES cases: each
 * size, modulus, n0, inputs and the results Python computed,
 * MUL = A B R^-1 mod N and SQR = A A R^-1 mod N.  Every case is run with r
 * apart and r aliasing an input.  Exit status: 0 all right, else
 * 1 + the first wrong case's index. */
#include "rt.h"
#include "internal.h"

#include "vectors.h"

static int differs(const uint64_t *x, const uint64_t *y, size_t num)
{
	uint64_t d = 0;
	for (size_t i = 0; i < num; i++)
		d |= x[i] ^ y[i];
	return d != 0;
}

static int one_case(const struct la64_case *c)
{
	uint64_t r[MONT_MAX_NUM], x[MONT_MAX_NUM];
	mont_c_mul(r, c->a, c->b, c->n, c->n0, c->num);
	int bad = differs(r, c->mul, c->num);
	mont_c_sqr(r, c->a, c->n, c->n0, c->num);
	bad |= differs(r, c->sqr, c->num);
	memcpy(x, c->a, c->num * sizeof *x);
	mont_c_mul(x, x, c->b, c->n, c->n0, c->num);
	bad |= differs(x, c->mul, c->num);
	memcpy(x, c->a, c->num * sizeof *x);
	mont_c_sqr(x, x, c->n, c->n0, c->num);
	return bad | differs(x, c->sqr, c->num);
}

int la64_main(int argc, char **argv, char **envp, const uint64_t *auxv)
{
	(void)argc, (void)argv, (void)envp, (void)auxv;
	for (size_t i = 0; i < NCASES; i++)
		if (one_case(&la64_cases[i]))
			return (int)(i + 1 > 250 ? 250 : i + 1);
	la64_write("ok\n", 3);
	return 0;
}
