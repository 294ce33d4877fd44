/* SPDX-License-Identifier: MIT */
/* montbench: our Montgomery backends against OpenSSL (API and raw kernels)
 * and GMP, on the same random odd moduli, in one process. */
#ifndef MONTBENCH_H
#define MONTBENCH_H

#include <stddef.h>
#include <stdint.h>

enum op { OP_MUL, OP_SQR, OP_EXP, OP_EXP2, OP_BATCH, OP_COUNT };
/* "mul", "sqr", "modexp", "modexp2", "batch8" */
extern const char *const op_name[OP_COUNT];
/* Exponentiations run once per check; mul/sqr are chained. */
#define OP_IS_EXP(op) ((op) == OP_EXP || (op) == OP_EXP2 || (op) == OP_BATCH)
/* Results an op leaves (num limbs each): modexp2's two, batch8's eight lanes
 * (which alternate modexp2's two operand sets). */
#define OP_RESULTS_MAX 8
#define OP_RESULTS(op) ((op) == OP_BATCH ? 8 : (op) == OP_EXP2 ? 2 : 1)

/* One operand set: modulus n (exactly `bits` bits, odd), a, b < n, and a
 * full-length exponent e (num limbs, top bit set); for modexp2 (an RSA-CRT
 * pair) a second modulus n2 and exponent e2 of the same size. */
struct operands {
	unsigned bits;
	size_t num;
	uint64_t *n, *a, *b, *e, *n2, *e2;   /* one block, starting at n */
	uint64_t n0, n0_2;
};

/* The chained operations every contender runs, so results compare:
 *   mul:    x <- x*b*R^-1 mod n   (x starts at a)
 *   sqr:    x <- x*x*R^-1 mod n   (x starts at a)
 *   modexp: r <- a^e mod n        (x unchanged)
 *   modexp2: r <- a^e mod n, r[num..] <- b^e2 mod n2 (two at once)
 *   batch8: eight at once (mont_modexp_batch), lanes 0, 2, 4, 6 modexp2's
 *           first, lanes 1, 3, 5, 7 its second; r holds all eight
 * R = 2^(64*num). */
struct contender {
	const char *name;
	const char *what;               /* what exactly is called, for people */
	int (*has)(enum op);            /* does it implement this op */
	const char *backend;            /* ours: the mont_select() name */
	void *(*prepare)(const struct operands *);   /* NULL: failed */
	void (*reset)(void *);          /* x <- a */
	void (*run)(void *, enum op, unsigned long iters);
	/* x, or r for modexp; -1 when a call reported failure */
	int (*result)(void *, enum op, uint64_t *out);
	void (*release)(void *);
	/* NULL, or why it cannot run here ("not built", "CPU lacks it") */
	const char *(*unavailable)(const struct contender *);
	void (*activate)(const struct contender *);  /* before each use */
	/* NULL, or why it cannot run at this size (may be NULL itself) */
	const char *(*unavailable_at)(const struct contender *, unsigned bits);
};

#define MAX_CONTENDERS 12
extern const struct contender contenders[];
extern const size_t ncontenders;
int contender_is_openssl(const struct contender *);

/* What ours, ossl-raw and the ossl x2 contenders share: they work on limb
 * arrays allocated with their state (limbs_new), so free() releases both
 * (ossl-raw frees its aligned table first); one reset (x <- a) and one
 * result serve them all. */
struct limbs {
	const struct operands *o;
	uint64_t *x;            /* mul, sqr: the chained value, num limbs */
	uint64_t *r;            /* modexp: num limbs; modexp2: 2*num; ours: 8*num */
	int fail;               /* a call reported failure */
};
void *limbs_new(size_t size, const struct operands *o, size_t extra,
		uint64_t **extra_at);
void limbs_reset(void *);
int limbs_result(void *, enum op, uint64_t *out);

/* bench/openssl.c, built once per OpenSSL linked (tag 3: the system's;
 * tag 4: `make bench-peers`'s 4.0.2): its functions, named by tag. */
#define OSSL_FN(tag, name) OSSL_FN_(tag, name)	/* tag expanded first */
#define OSSL_FN_(tag, name) bench_ossl##tag##_##name
#define OSSL_DECLARE(tag) \
	const char *OSSL_FN(tag, version)(void); \
	void *OSSL_FN(tag, api_prepare)(const struct operands *); \
	void OSSL_FN(tag, api_reset)(void *); \
	void OSSL_FN(tag, api_run)(void *, enum op, unsigned long); \
	int OSSL_FN(tag, api_result)(void *, enum op, uint64_t *); \
	void OSSL_FN(tag, api_release)(void *); \
	int OSSL_FN(tag, r_squared_of)(uint64_t *, const struct operands *, \
				       const uint64_t *); \
	void *OSSL_FN(tag, x2_prepare)(const struct operands *); \
	const char *OSSL_FN(tag, x2_unavailable)(const struct contender *); \
	const char *OSSL_FN(tag, x2_unavailable_at)(const struct contender *, \
						    unsigned); \
	void OSSL_FN(tag, x2_run)(void *, enum op, unsigned long);
OSSL_DECLARE(3)
#ifdef BENCH_OSSL4
OSSL_DECLARE(4)
#endif

/* What one product (a mul or sqr step) executes, by steps.c. */
struct steps {
	unsigned long insns, mulx, mulq, madd;  /* mulq: MUL r/m64; madd: VPMADD52 */
};
/* 0 and *out: one more run(st, op, ...) step of contender k, counted
 * instruction by instruction; -1 where this build cannot single-step. */
int steps_count(const struct contender *k, void *st, enum op op, struct steps *out);

/* One line of the report: a contender's time for one op at one size. */
struct result {
	unsigned bits;
	enum op op;
	char name[24];          /* contender, "-noadx" for the masked child */
	char status[48];        /* "": timed; else why not ("not built") */
	double med, min, max;   /* ns per operation over the rounds */
	int stepped;            /* steps counted (mul and sqr, in process) */
	struct steps steps;
};

struct run_info {
	double ghz, ghz_end;    /* core clock at start and end */
	int cpu;                /* pinned to, or -1 */
	unsigned rounds;
	uint64_t seed;
	int quick;
	unsigned cap, cap_noadx;   /* OPENSSL_ia32cap_P[2] here / in the child */
	int child_ran;
	const char *openssl, *gmp; /* versions, for the record only */
	/* issued per cycle by independent chains (ifma.c), or 0 and why not */
	double madd_rate, mulx_rate;    /* VPMADD52LUQ zmm; MULX */
	const char *madd_why, *mulx_why;
};

/* report.c */
void report_table(const struct run_info *, const struct result *, size_t);
void report_json(const struct run_info *, const struct result *, size_t);

/* ifma.c: the issue rates, the amm52 contender, the floor and counts */
void issue_rates(struct run_info *);   /* at ri->ghz */
void *amm_prepare(const struct operands *);
void *amm2_prepare(const struct operands *);   /* amm52x2: the packed pair */
void amm_reset(void *);
void amm_run(void *, enum op, unsigned long iters);
int amm_result(void *, enum op, uint64_t *out);
void amm_release(void *);
int amm_has(enum op);
const char *amm_unavailable(const struct contender *);
const char *amm_unavailable_at(const struct contender *, unsigned bits);
const char *amm2_unavailable_at(const struct contender *, unsigned bits);
/* multiplies a product of num limbs needs at least (0: no floor for op) */
double floor_mults(enum op, const char *name, size_t num);
/* the measured issue rate those multiplies go at (0: not measured) */
double floor_rate(const struct run_info *, const char *name);
/* 1 and the kernel's VPMADD52 and instructions per product, or 0 */
int kernel_counts(const char *name, enum op, size_t num, unsigned long *madd,
		  unsigned long *insns);

/* OPENSSL_ia32cap_P[2] bits (CPUID(7,0).EBX) OpenSSL's MULX code tests:
 * BMI2 (0x100) and ADX (0x80000) for bn_mul_mont; bn_power5 and
 * bn_mul_mont_gather5 also want BMI1 (0x8, for ANDN). */
#define OSSL_CAP_MULX 0x80108u

/* operands.c */
int operands_make(struct operands *, unsigned bits, uint64_t seed);
void operands_free(struct operands *);
/* Points *part[0], *part[1]... at consecutive runs of num limbs of block. */
void split_limbs(uint64_t *block, size_t num, uint64_t **const part[],
		 size_t nparts);
/* Independent reference (GMP mpz arithmetic) after k chained steps. */
void reference(const struct operands *, enum op, unsigned k, uint64_t *out);

/* clock.c */
uint64_t now_ns(void);                 /* thread CPU time */
double core_ghz(double budget_ms);      /* dependent add chain vs clock_gettime */
int pin_one_cpu(void);                  /* the CPU pinned to, or -1 */

#endif
