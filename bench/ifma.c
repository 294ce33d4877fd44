/* SPDX-License-Identifier: MIT */
/* The hardware's limit: how many VPMADD52 (zmm) and MULX this core issues
 * per cycle, the IFMA product kernel mont_modexp runs (contender amm52),
 * and each kernel's instruction counts per product (the generator's, from
 * mont-kernels.h). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "internal.h"
#include "mont-kernels.h"

/* ---- issue rates: independent chains, so throughput, not latency ---- */

/* 14 accumulators (4 cycles of latency at 2 a cycle need 8 in flight),
 * 8 rounds of them per loop trip */
#define CHAINS 14
#define REPS 8
#define STR(x) STR_(x)
#define STR_(x) #x

#ifdef MONT_HAVE_IFMA
/* CHAINS * REPS VPMADD52LUQ per trip (the .irp lists the CHAINS
 * registers), each accumulating into its own register from two that never change: no instruction waits for another
 * but the one CHAINS back into the same register. */
static void madd_trips(unsigned long trips)
{
	__asm__ volatile(
		"vpxorq %%xmm14,%%xmm14,%%xmm14\n\tvpternlogq $0xff,%%zmm15,%%zmm15,%%zmm15\n"
		"1:\n\t.rept " STR(REPS) "\n"
		"\t.irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13\n"
		"\tvpmadd52luq %%zmm14,%%zmm15,%%zmm\\r\n\t.endr\n\t.endr\n"
		"\tdec %0\n\tjnz 1b\n\tvzeroupper\n"
		: "+r"(trips) : : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}
#endif

#ifdef MONT_HAVE_ADX
/* CHAINS * REPS MULX per trip: each reads only %rdx and writes one of
 * two register pairs that nothing reads, so none waits for another. */
static void mulx_trips(unsigned long trips)
{
	__asm__ volatile(
		"mov %0,%%rdx\n1:\n\t.rept " STR(CHAINS * REPS / 2) "\n"
		"\tmulx %%rdx,%%r8,%%r9\n\tmulx %%rdx,%%r10,%%r11\n\t.endr\n"
		"\tdec %0\n\tjnz 1b\n"
		: "+r"(trips) : : "cc", "rdx", "r8", "r9", "r10", "r11");
}
#endif

/* Instructions per cycle of one loop: the fastest of 5 timings of at least
 * 4 ms (interruptions only make a timing slower), at `ghz`. */
static double rate(void (*loop)(unsigned long), double ghz)
{
	unsigned long trips = 1000;
	uint64_t best = UINT64_MAX;

	while (trips < (1ul << 30)) {
		uint64_t t0 = now_ns();
		loop(trips);
		if (now_ns() - t0 >= 4000000)
			break;
		trips *= 2;
	}
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = now_ns(), dt;
		loop(trips);
		dt = now_ns() - t0;
		if (dt < best)
			best = dt;
	}
	return (double)trips * CHAINS * REPS / ((double)best * ghz);
}

/* One rate, or why not: the dispatcher decides whether the CPU runs the
 * instruction (backend's mont_select code -3), the build whether the
 * toolchain emitted it (-2, or no loop compiled). */
static double measure(const char *backend, void (*loop)(unsigned long), double ghz,
		      const char **why)
{
	const char *was = mont_backend();
	int rc = mont_select(backend);

	mont_select(was);
	*why = rc == -3 ? "skipped: the CPU lacks it (libmont's dispatcher)"
		: rc || !loop ? "skipped: not built (the toolchain's caps)" : NULL;
	return *why ? 0 : rate(loop, ghz);
}

void issue_rates(struct run_info *ri)
{
	void (*madd)(unsigned long) = NULL, (*mulx)(unsigned long) = NULL;
#ifdef MONT_HAVE_IFMA
	madd = madd_trips;
#endif
#ifdef MONT_HAVE_ADX
	mulx = mulx_trips;
#endif
	ri->madd_rate = measure("ifma", madd, ri->ghz, &ri->madd_why);
	ri->mulx_rate = measure("adx", mulx, ri->ghz, &ri->mulx_why);
}

/* ---- amm52, amm52x2: the IFMA products mont_modexp and mont_modexp2 run,
 * chained, radix 2^52, R' = 2^(52L) ---- */
/* amm52: montk_amm52_K, or where mont_modexp works modulo n' = n*mu (mu =
 * -n^-1 mod 2^(52 k.digits), k0 = 1: k.one_f, one or two limbs more)
 * montk_amm52f_K (given n'' = (n'+1)/2^104 where it takes two digits a
 * trip): the same values mod n. amm52x2: the packed pair montk_amm52x2p_K (and its square
 * montk_sqr52x2p_K where there is one), two numbers interleaved (limb t of
 * number i at 2t + i): number 0 runs amm52's chain mod n, number 1 the same
 * chain mod n2; the result is number 0's, and number 1 is checked against
 * GMP here (the agreement check compares one result of a mul or sqr). */

struct amm {
	const struct operands *o;
	struct mont_ifma k;
	mont_amm_fn *fn;	/* ways 1: the product mont_modexp runs, of L limbs */
	int ways;
	size_t L, span;		/* span: limbs of a number (ways 2: both, 2 span) */
	uint64_t k0[2];
	unsigned long steps;    /* products since reset */
	unsigned long shifts;   /* x = a*b^j / R'^shifts (mul), a^(2^j) / ... */
	uint64_t *x, *b, *n;    /* ways * span limbs each, 64-byte aligned */
};

static size_t amm_L(size_t num)
{
	return (64 * num + 2 + 51) / 52;        /* 4n <= R', as mont/ifma.c */
}
/* The longest span: L of MONT_MAX_NUM limbs (two limbs more mod n') up to 8. */
#define SPAN_MAX (((64 * MONT_MAX_NUM + 2 + 51) / 52 + 2 + 7) & ~(size_t)7)

/* Number i of the amm's array x as a GMP integer (x normalised). */
static void import52(const struct amm *s, mpz_t z, const uint64_t *x, int i)
{
	uint64_t t[SPAN_MAX] = { 0 };
	for (size_t j = 0; j < s->L; j++)
		t[j] = x[s->ways == 2 ? 2 * j + i : j];
	mpz_import(z, s->L, -1, 8, 0, 12, t);   /* 12 nail bits: 52 a limb */
}

/* Number i of the amm's array x = z (the other number as it was). */
static void export52(const struct amm *s, uint64_t *x, int i, const mpz_t z)
{
	uint64_t t[SPAN_MAX] = { 0 };
	mpz_export(t, NULL, -1, 8, 0, 12, z);
	for (size_t j = 0; j < s->span; j++)
		x[s->ways == 2 ? 2 * j + i : j] = t[j];
}

/* The state of `ways` chains through the kernels k of o's size (ways 2:
 * number 1 modulo n2), or NULL. */
static void *amm_new(const struct operands *o, int ways)
{
	struct amm *s = calloc(1, sizeof *s);
	mpz_t z;

	if (!s || !mont_ifma_kernel(o->num, ways, &s->k) || (ways == 1 ? !s->k.one : !s->k.two)) {
		free(s);
		return NULL;
	}
	mont_ifma_choose(&s->k);	/* n' where mont_modexp takes it */
	s->o = o;
	s->ways = ways;
	s->span = s->k.span;
	s->x = aligned_alloc(64, 3 * ways * s->span * 8);
	if (!s->x) {
		free(s);
		return NULL;
	}
	s->b = s->x + ways * s->span;
	s->n = s->b + ways * s->span;
	s->fn = s->k.one_f ? s->k.one_f : s->k.one;
	s->L = ways == 1 && s->k.one_f ? s->k.lf : s->k.L;
	mpz_init(z);
	for (int i = 0; i < ways; i++) {
		const uint64_t *n = i ? o->n2 : o->n;
		s->k0[i] = mont_n0(n[0]) & ((UINT64_C(1) << 52) - 1);
		mpz_import(z, o->num, -1, 8, 0, 0, o->b);
		export52(s, s->b, i, z);
		mpz_import(z, o->num, -1, 8, 0, 0, n);
		if (ways == 1 && s->k.one_f) {	/* n' = n*mu, mu = -n^-1 mod 2^(52 digits) */
			mpz_t mu, m;
			mpz_inits(mu, m, NULL);
			mpz_setbit(m, 52 * s->k.digits);
			mpz_invert(mu, z, m);
			mpz_sub(mu, m, mu);
			mpz_mul(z, z, mu);
			if (s->k.digits == 2) {	/* the kernel reads n'' = (n'+1)/2^104 */
				mpz_add_ui(z, z, 1);
				mpz_fdiv_q_2exp(z, z, 104);
			}
			mpz_clears(mu, m, NULL);
			s->k0[0] = 1;
		}
		export52(s, s->n, i, z);
	}
	mpz_clear(z);
	return s;
}

void *amm_prepare(const struct operands *o)
{
	return amm_new(o, 1);
}

void *amm2_prepare(const struct operands *o)
{
	return amm_new(o, 2);
}

void amm_reset(void *p)
{
	struct amm *s = p;
	mpz_t z;
	mpz_init(z);
	mpz_import(z, s->o->num, -1, 8, 0, 0, s->o->a);
	for (int i = 0; i < s->ways; i++)
		export52(s, s->x, i, z);
	mpz_clear(z);
	s->steps = s->shifts = 0;
}

void amm_run(void *p, enum op op, unsigned long it)
{
	struct amm *s = p;
	const uint64_t *by = op == OP_SQR ? s->x : s->b;
	mont_amm2_fn *two = op == OP_SQR && s->k.sqr2 ? s->k.sqr2 : s->k.two;
	mont_amm_fn *one = op == OP_SQR && s->k.sqr1 && !s->k.one_f ? s->k.sqr1 : s->fn;
	while (it--) {
		if (s->ways == 1)
			one(s->x, s->x, by, s->n, s->k0[0], s->L);
		else
			two(s->x, s->x, by, s->n, s->k0, s->L);
		s->steps++;
		s->shifts = op == OP_SQR ? 2 * s->shifts + 1 : s->shifts + 1;
	}
}

/* Number i in the reference's terms: x * (R'/R)^shifts mod n, R =
 * 2^(64 num), which is what mul/sqr chained with R give (R' > R: a left
 * shift). */
static void amm_value(const struct amm *s, int i, uint64_t *out)
{
	const size_t num = s->o->num;
	mpz_t x, n;
	mpz_inits(x, n, NULL);
	import52(s, x, s->x, i);
	mpz_import(n, num, -1, 8, 0, 0, i ? s->o->n2 : s->o->n);
	mpz_mul_2exp(x, x, (52 * s->L - 64 * num) * s->shifts);
	mpz_mod(x, x, n);
	memset(out, 0, num * 8);
	mpz_export(out, NULL, -1, 8, 0, 0, x);
	mpz_clears(x, n, NULL);
}

/* Number 0; -1 when number 1 of a pair is not the reference's chain mod n2. */
int amm_result(void *p, enum op op, uint64_t *out)
{
	struct amm *s = p;
	int rc = 0;
	amm_value(s, 0, out);
	if (s->ways == 2) {
		const size_t num = s->o->num;
		struct operands o2 = *s->o;
		uint64_t *got = malloc(num * 8), *want = malloc(num * 8);
		o2.n = s->o->n2;
		if (got && want) {
			amm_value(s, 1, got);
			reference(&o2, op, (unsigned)s->steps, want);
		}
		rc = !got || !want || memcmp(got, want, num * 8) ? -1 : 0;
		if (got && want && rc)
			fprintf(stderr, "montbench: amm52x2 %s at %u bits: the second "
				"number (mod n2) disagrees with the reference (GMP mpz)\n",
				op_name[op], s->o->bits);
		free(got);
		free(want);
	}
	return rc;
}

void amm_release(void *p)
{
	struct amm *s = p;
	free(s->x);
	free(s);
}

int amm_has(enum op op)
{
	return op == OP_MUL || op == OP_SQR;
}

const char *amm_unavailable(const struct contender *c)
{
	(void)c;
	switch (mont_select("ifma")) {
	case 0:
		return NULL;
	case -3:
		return "CPU lacks it";
	default:
		return "not built";
	}
}

static const char *past_sizes(unsigned bits, int ways)
{
	struct mont_ifma k;
	return mont_ifma_kernel(bits / 64, ways, &k) && (ways == 1 ? k.one != NULL : k.two != NULL) ?
	       NULL : "past the kernels' sizes";
}

const char *amm_unavailable_at(const struct contender *c, unsigned bits)
{
	(void)c;
	return past_sizes(bits, 1);
}

const char *amm2_unavailable_at(const struct contender *c, unsigned bits)
{
	(void)c;
	return past_sizes(bits, 2);
}

/* ---- counts per product ---- */

/* The multiplies a product cannot do without, in instructions at full
 * width: amm52 4L^2 lane products (a*b and m*n, low and high halves) over
 * 8 lanes, (3L^2+L)/8 for a square (each a_i a_j, i < j, once: L(L-1)/2
 * of them, low and high, and L squares, low and high: L^2+L; plus m*n's
 * 2L^2); the 64-bit kernels 2n^2+n MULX for a multiply (a*b, m*n, and m
 * per row), n(n+1)/2+n^2+n for a square. 0: none for this op. */
static int is_ifma(const char *name)
{
	return !strncmp(name, "amm52", 5);      /* amm52, amm52x2 */
}

/* (amm52x2: twice amm52's, a product of each number) */
double floor_mults(enum op op, const char *name, size_t num)
{
	double n = (double)num, L = (double)amm_L(num);
	double ways = !strcmp(name, "amm52x2") ? 2 : 1;
	int ifma = is_ifma(name);
	if (op == OP_MUL)
		return ifma ? ways * 4 * L * L / 8 : 2 * n * n + n;
	if (op == OP_SQR)
		return ifma ? ways * (3 * L * L + L) / 8 : n * (n + 1) / 2 + n * n + n;
	return 0;
}

/* The per-cycle rate floor_mults is divided by: 0 when not measured. */
double floor_rate(const struct run_info *ri, const char *name)
{
	return is_ifma(name) ? ri->madd_rate : ri->mulx_rate;
}

/* VPMADD52 and all instructions one product of the kernel behind
 * (name, op) executes at num limbs, from the generator's counts; 0 when
 * there are none (not an IFMA kernel, or none built). */
int kernel_counts(const char *name, enum op op, size_t num, unsigned long *madd,
		  unsigned long *insns)
{
#ifdef MONT_HAVE_IFMA
	static const struct montk_ifma_count x1[] = MONTK_IFMA_X1_COUNTS;
	static const struct montk_ifma_count x1f[] = MONTK_IFMA_X1F_COUNTS;
	static const struct montk_ifma_count x2p[] = MONTK_IFMA_X2P_COUNTS;
	static const struct montk_ifma_count x2psqr[] = MONTK_IFMA_X2PSQR_COUNTS;
	static const struct montk_ifma_count x1sqr[] = MONTK_IFMA_X1SQR_COUNTS;
	static const struct montk_ifma_count x2pams[] = MONTK_IFMA_X2PAMS_COUNTS;
	const int ways = !strcmp(name, "amm52x2") ? 2 : 1;
	const struct montk_ifma_count *c;
	struct mont_ifma k;
	if (!is_ifma(name) || !amm_has(op) || !mont_ifma_kernel(num, ways, &k)
	    || !(ways == 1 ? k.one != NULL : k.two != NULL))
		return 0;
	mont_ifma_choose(&k);	/* as amm_new */
	/* the kernel amm_run times, at its L */
	if (ways == 2) {
		const size_t K = k.span / MONTK_IFMA_X2P_LANES;
		c = op != OP_SQR || !k.sqr2 ? &x2p[K - 1]
		    : K >= MONTK_IFMA_X2PSQR_KMIN ? &x2psqr[K - MONTK_IFMA_X2PSQR_KMIN]
		    : &x2pams[K - MONTK_IFMA_X2PAMS_KMIN];
	} else {
		const size_t K = k.span / MONTK_IFMA_LANES;
		c = k.one_f ? &x1f[K - 1] : op == OP_SQR && k.sqr1 ? &x1sqr[K - MONTK_IFMA_X1SQR_KMIN]
		    : &x1[K - 1];
	}
	const size_t L = ways == 1 && k.one_f ? k.lf : k.L;
	*madd = c->madd[0] + (L - c->peeled) / c->step * c->madd[1] + c->madd[2];
	*insns = c->insns[0] + (L - c->peeled) / c->step * c->insns[1] + c->insns[2];
	return 1;
#else
	(void)name, (void)op, (void)num, (void)madd, (void)insns;
	return 0;
#endif
}
