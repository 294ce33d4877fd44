/* SPDX-License-Identifier: MIT */
/* Test driver for libmont: one command per line on stdin, one result line
 * on stdout. Numbers are hex (most significant digit first, no 0x).
 *
 *   select NAME                       -> mont_select() return code
 *   backend                           -> mont_backend()
 *   n0 HEX                            -> mont_n0(HEX)
 *   mul NUM N A B | sqr NUM N A       -> result
 *   mulalias NUM N A                  -> mont_mul(x, x, x): r == a == b
 *   sqralias NUM N A                  -> mont_sqr(x, x)
 *   modexp NUM N BASE ELIMBS EXP      -> "RC RESULT" (RESULT "-" on error)
 *   modexp-alias WHAT NUM N BASE ELIMBS EXP   r is the base, exp or n buffer
 *   modexp-null WHAT                  -> RC with WHAT (r|base|exp|n) NULL;
 *                                        "exp0": exp NULL with 0 limbs -> RC R
 *   modexp-bad NUM N BASE             -> RC (num may be 0 or too large)
 *   modexp2 NUM N1 B1 EL1 E1 N2 B2 EL2 E2   -> "RC R1 R2" (mont_modexp2)
 *   modexp2-alias W1 W2 NUM N1 B1 EL1 E1 N2 B2 EL2 E2   the same with r1
 *                                        in buffer W1 and r2 in W2 (b1 e1
 *                                        n1 b2 e2 n2, or r: its own)
 *   ifma NUM N BASE ELIMBS EXP        -> the IFMA exponentiation whatever
 *                                        the backend and size: "RESULT", or
 *                                        "none" without a kernel for num
 *   batch HOW NUM COUNT ELIMBS (N B E)...  -> mont_modexp_batch: "RC R..."
 *                                        (see do_batch: HOW api, alias-*,
 *                                        ifma)
 *   batch-err WHAT NUM COUNT ELIMBS (N B E)...  -> "RC untouched|written"
 *   batch-path NUM COUNT              -> 1 when mont_modexp_batch runs the
 *                                        8-lane IFMA code for them, else 0
 *   time-batch NUM COUNT REPS         -> "NS_LANES NS_LOOP": COUNT
 *                                        exponentiations, 8-lane IFMA code
 *                                        against a mont_modexp loop
 *   ifma2 NUM N1 B1 EL1 E1 N2 B2 EL2 E2   -> "R1 R2" (or "none"), the two
 *                                        at once
 *   kernel NUM WAYS                   -> the IFMA kernels mont_ifma_kernel
 *                                        picks: "packed L SPAN" (a pair kernel,
 *                                        the numbers interleaved; "packed L
 *                                        SPAN square" with its pair square),
 *                                        "one L SPAN" (then " prime LF" when
 *                                        modexp works modulo n*mu), or "none"
 *   ifmafor NUM WAYS                  -> the same for the kernels mont_ifma_for
 *                                        picks (backend, crossover, n' choice)
 *   dudect WHAT NUM SAMPLES SEED      -> "T COUNT": the largest |t| of Welch's
 *                                        t-test between fixed and random
 *                                        secret inputs (see dudect() below);
 *                                        WHAT: modexp, modexp2, ifma, ifma2,
 *                                        batch (mont_modexp_batch of 8),
 *                                        ifma-batch (its 8-lane IFMA code
 *                                        alone), leaky (the control)
 *   time2 NUM REPS                    -> "NS1 NS2": best mont_modexp and
 *                                        mont_modexp2 (two modexps) with
 *                                        full-size exponents
 *   window W NUM N BASE ELIMBS EXP    -> result with window width W
 *   ct NUM N BASE ELIMBS EXP          -> result; base and exp marked
 *                                        undefined for valgrind first
 *   ct-leaky NUM N BASE ELIMBS EXP    -> the same through a deliberately
 *                                        leaky square-and-multiply (control)
 *   time NUM W REPS                   -> "NS" per modexp with a full-size
 *                                        exponent and window W
 *   threads T ITER NUM N BASE ELIMBS EXP  -> how many of T*ITER modexps in T
 *                                        threads differed from the first,
 *                                        while this thread keeps switching
 *                                        backends with mont_select
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#if defined(__linux__) && defined(__x86_64__)
#include <valgrind/memcheck.h>
#else
/* valgrind checks the ct command on x86_64 Linux (tests/mont/test_valgrind.py);
 * Windows and cross builds of the harness have no valgrind headers. */
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#endif
#include "internal.h"

#define MAXL (2 * MONT_MAX_NUM + 2)	/* room to pass an oversized num */

static void fail(const char *what, const char *arg)
{
	fprintf(stderr, "harness: %s: %s\n", what, arg ? arg : "(missing)");
	exit(2);
}

static size_t parse_size(const char *s)
{
	char *end;
	unsigned long v;

	if (!s)
		fail("missing number", s);
	v = strtoul(s, &end, 10);
	if (*end)
		fail("bad number", s);
	return v;
}

/* hex -> num limbs; the value must fit */
static void parse_hex(uint64_t *x, size_t num, const char *s)
{
	size_t len;

	if (!s)
		fail("missing hex", s);
	len = strlen(s);
	memset(x, 0, num * sizeof *x);
	for (size_t i = 0; i < len; i++) {
		char c = s[len - 1 - i];
		uint64_t d = c >= '0' && c <= '9' ? (uint64_t)(c - '0') :
		             c >= 'a' && c <= 'f' ? (uint64_t)(c - 'a' + 10) : 16;
		if (d == 16)
			fail("bad hex", s);
		if (d && i / 16 >= num)
			fail("hex does not fit in num limbs", s);
		if (d)
			x[i / 16] |= d << (4 * (i % 16));
	}
}

static void put_hex(const uint64_t *x, size_t num)
{
	size_t i = num;

	while (i > 1 && x[i - 1] == 0)
		i--;
	printf("%llx", i ? (unsigned long long)x[i - 1] : 0ULL);
	while (i-- > 1)
		printf("%016llx", (unsigned long long)x[i - 1]);
}

static void print_hex(const uint64_t *x, size_t num)
{
	put_hex(x, num);
	putchar('\n');
}

/* The control for the constant-time test: left-to-right square and
 * multiply that branches on each exponent bit. Never use this. Not inlined,
 * so valgrind names it even without readable debug info. */
__attribute__((noinline))
static void leaky_modexp(uint64_t *r, const uint64_t *base, const uint64_t *exp,
                         size_t exp_limbs, const uint64_t *n, size_t num)
{
	uint64_t rr[MONT_MAX_NUM], x[MONT_MAX_NUM], acc[MONT_MAX_NUM] = {0};
	uint64_t n0 = mont_n0(n[0]);

	/* rr = R^2 mod n = 2^(128 num) mod n, from the real modexp on public
	 * values; then acc = 1 and x = base in Montgomery form */
	uint64_t two[MONT_MAX_NUM] = {2}, e = 128 * num;
	mont_modexp_unchecked(rr, two, &e, 1, n, num, 1);
	acc[0] = 1;
	mont_mul(acc, acc, rr, n, n0, num);
	mont_mul(x, base, rr, n, n0, num);
	for (size_t i = 64 * exp_limbs; i--; ) {
		mont_sqr(acc, acc, n, n0, num);
		if (exp[i / 64] >> (i % 64) & 1)
			mont_mul(acc, acc, x, n, n0, num);
	}
	memset(x, 0, sizeof x);
	x[0] = 1;
	mont_mul(r, acc, x, n, n0, num);
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t nbuf[MAXL], abuf[MAXL], bbuf[MAXL], rbuf[MAXL], ebuf[MAXL];
static uint64_t n2buf[MAXL], a2buf[MAXL], r2buf[MAXL], e2buf[MAXL];
/* The lanes of the batch commands. */
static uint64_t bat_n[MONT_BATCH_MAX][MAXL], bat_b[MONT_BATCH_MAX][MAXL];
static uint64_t bat_e[MONT_BATCH_MAX][MAXL], bat_r[MONT_BATCH_MAX][MAXL];

struct job {
	size_t iter, num, elimbs, wrong;
	atomic_int *running;
};

/* ITER modexps on the shared inputs, each compared with rbuf */
static void *modexp_worker(void *arg)
{
	struct job *job = arg;
	uint64_t r[MONT_MAX_NUM];

	for (size_t i = 0; i < job->iter; i++) {
		mont_modexp(r, abuf, ebuf, job->elimbs, nbuf, job->num);
		job->wrong += memcmp(r, rbuf, job->num * sizeof *r) != 0;
	}
	atomic_fetch_sub(job->running, 1);
	return NULL;
}

static size_t run_threads(size_t threads, size_t iter, size_t num, size_t elimbs)
{
	static const char *const names[] = {"c", "mulq", "adx"};
	pthread_t tid[16];
	struct job jobs[16];
	atomic_int running = (int)threads;
	size_t wrong = 0;

	if (threads < 1 || threads > 16)
		fail("threads: 1..16", "threads");
	mont_modexp(rbuf, abuf, ebuf, elimbs, nbuf, num);
	for (size_t t = 0; t < threads; t++) {
		jobs[t] = (struct job){iter, num, elimbs, 0, &running};
		if (pthread_create(&tid[t], NULL, modexp_worker, &jobs[t]))
			fail("pthread_create failed", "threads");
	}
	for (size_t i = 0; atomic_load(&running) > 0; i++)
		mont_select(names[i % 3]);	/* -2/-3 for missing ones: fine */
	for (size_t t = 0; t < threads; t++) {
		pthread_join(tid[t], NULL);
		wrong += jobs[t].wrong;
	}
	return wrong;
}

/* The next word of the command line (NULL at its end). */
static char *word(void)
{
	return strtok(NULL, " \n");
}

/* N BASE ELIMBS EXP of num limbs from the rest of the line */
static void parse_set(uint64_t *n, uint64_t *a, uint64_t *e, size_t num,
                      size_t *elimbs)
{
	parse_hex(n, num, word());
	parse_hex(a, num, word());
	*elimbs = parse_size(word());
	if (*elimbs > MAXL)
		fail("exponent too long", "modexp");
	parse_hex(e, *elimbs, word());
}

/* Cycle counter: TSC after the earlier instructions complete. */
static uint64_t ticks(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;
	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
#else
	return (uint64_t)now_ns();
#endif
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

struct welch { double n[2], mean[2], m2[2]; };

static void welch_add(struct welch *w, int cls, double x)
{
	double d = x - w->mean[cls];
	w->n[cls]++;
	w->mean[cls] += d / w->n[cls];
	w->m2[cls] += d * (x - w->mean[cls]);
}

static double welch_t(const struct welch *w)
{
	if (w->n[0] < 2 || w->n[1] < 2)
		return 0;
	double v0 = w->m2[0] / (w->n[0] - 1), v1 = w->m2[1] / (w->n[1] - 1);
	double se = sqrt(v0 / w->n[0] + v1 / w->n[1]);
	return se > 0 ? (w->mean[0] - w->mean[1]) / se : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* One sample's secret inputs of class cls (0 fixed, 1 random) into the
 * base and exponent buffers, chosen without a branch on the class:
 * branches taken just before the call shape the predictor's history, so
 * a class-dependent one shows up as a class-dependent time in whatever
 * the library's code predicts (seen: |t| > 10 on a constant-time backend,
 * depending on the harness's code layout). */
static void dudect_inputs(uint64_t cls, size_t num, const uint64_t *fixed_b, const uint64_t *fixed_e,
                          uint64_t *s)
{
	uint64_t m = 0 - cls;	/* all ones for the random class */
	for (size_t i = 0; i < num; i++) {
		abuf[i] = (xorshift(s) & m) | (fixed_b[i] & ~m);
		ebuf[i] = (xorshift(s) & m) | (fixed_e[i] & ~m);
		a2buf[i] = (xorshift(s) & m) | (fixed_b[i] & ~m);
		e2buf[i] = (xorshift(s) & m) | (fixed_e[i] & ~m);
	}
	abuf[num - 1] >>= 2 & m;	/* random: base < n, a full-length exponent */
	a2buf[num - 1] >>= 2 & m;
	ebuf[num - 1] |= (uint64_t)1 << 63 & m;
	e2buf[num - 1] |= (uint64_t)1 << 63 & m;
}

/* The call dudect times. The batches take eight lanes, the secrets of
 * the two sets dudect_inputs fills (abuf, ebuf; a2buf, e2buf) in turn. */
static void dudect_call(const char *what, size_t num, int ways, const struct mont_ifma *k)
{
	uint64_t *const r[MONT_BATCH_MAX] = {rbuf, r2buf, bat_r[2], bat_r[3], bat_r[4],
	                                     bat_r[5], bat_r[6], bat_r[7]};
	const uint64_t *const b[MONT_BATCH_MAX] = {abuf, a2buf, abuf, a2buf, abuf, a2buf, abuf, a2buf};
	const uint64_t *const e[MONT_BATCH_MAX] = {ebuf, e2buf, ebuf, e2buf, ebuf, e2buf, ebuf, e2buf};
	const uint64_t *const n[MONT_BATCH_MAX] = {nbuf, n2buf, nbuf, n2buf, nbuf, n2buf, nbuf, n2buf};
	const size_t el[2] = {num, num};

	if (!strcmp(what, "leaky"))
		leaky_modexp(rbuf, abuf, ebuf, num, nbuf, num);
	else if (!strcmp(what, "modexp"))
		mont_modexp(rbuf, abuf, ebuf, num, nbuf, num);
	else if (!strcmp(what, "modexp2"))
		mont_modexp2(rbuf, abuf, ebuf, num, nbuf, r2buf, a2buf, e2buf, num, n2buf, num);
	else if (!strcmp(what, "batch"))
		mont_modexp_batch(MONT_BATCH_MAX, r, b, e, num, n, num);
	else if (!strcmp(what, "ifma-batch"))
		mont_ifma_batch(MONT_BATCH_MAX, r, b, e, num, n, num);
	else
		mont_ifma_modexp(ways, r, b, e, el, n, num, k);
}

/* dudect (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant
 * time?", 2017): secret inputs of two classes, interleaved at random --
 * class 0 fixed (base 1, exponent 2^(64 num - 1) + 1: two bits set),
 * class 1 fresh random base and exponent each time -- the modulus public
 * and fixed. Each call is timed in cycles; Welch's t-test compares the
 * classes over all samples and over those below several percentiles
 * (cropping the long tail that interrupts and the other tenants of a
 * shared machine add), taken from the first tenth, which is not tested.
 * Returns the largest |t|; constant-time code stays near 0, a leak grows
 * with the samples (|t| > 4.5 is the usual verdict). Both classes copy
 * their inputs into the same buffers before the call, so the code under
 * test sees the same memory either way. */
static double dudect(const char *what, size_t num, size_t samples, uint64_t seed,
                     size_t *tested)
{
	static const double pct[] = {0.5, 0.75, 0.9, 0.95, 0.99};
	enum { NT = sizeof pct / sizeof pct[0] + 1 };
	struct welch w[NT];
	uint64_t fixed_b[MONT_MAX_NUM] = {1}, fixed_e[MONT_MAX_NUM] = {1};
	uint64_t cut[NT - 1], *warm;
	size_t nwarm = samples / 10;
	uint64_t s = seed | 1;
	struct mont_ifma k;
	int ways = !strcmp(what, "modexp2") || !strcmp(what, "ifma2") ? 2 : 1;

	if ((!strcmp(what, "ifma") || !strcmp(what, "ifma2")) && !mont_ifma_kernel(num, ways, &k))
		fail("dudect: no IFMA kernel for this num", what);
	if (!strcmp(what, "ifma-batch") && !mont_ifma_batch_kernel(num))
		fail("dudect: no 8-lane IFMA kernel for this num", what);
	if (strcmp(what, "modexp") && strcmp(what, "modexp2") && strcmp(what, "ifma") &&
	    strcmp(what, "ifma2") && strcmp(what, "leaky") && strcmp(what, "batch") &&
	    strcmp(what, "ifma-batch"))
		fail("dudect: not modexp|modexp2|ifma|ifma2|batch|ifma-batch|leaky", what);
	memset(w, 0, sizeof w);
	fixed_e[num - 1] = (uint64_t)1 << 63 | (num == 1);
	for (size_t i = 0; i < num; i++) {	/* public modulus, two of them */
		nbuf[i] = xorshift(&s) | (i == 0) | (i + 1 == num ? (uint64_t)1 << 63 : 0);
		n2buf[i] = xorshift(&s) | (i == 0) | (i + 1 == num ? (uint64_t)1 << 63 : 0);
	}
	warm = malloc(nwarm * sizeof *warm + 1);
	if (!warm)
		fail("dudect: out of memory", what);
	for (size_t j = 0; j < samples; j++) {
		uint64_t cls = xorshift(&s) & 1;
		dudect_inputs(cls, num, fixed_b, fixed_e, &s);
		uint64_t t0 = ticks();
		dudect_call(what, num, ways, &k);
		uint64_t dt = ticks() - t0;
		if (j < nwarm) {
			warm[j] = dt;
			if (j + 1 == nwarm) {
				qsort(warm, nwarm, sizeof *warm, cmp_u64);
				for (size_t c = 0; c < NT - 1; c++)
					cut[c] = warm[(size_t)(pct[c] * (nwarm - 1))];
			}
			continue;
		}
		welch_add(&w[NT - 1], (int)cls, (double)dt);
		for (size_t c = 0; c < NT - 1; c++)
			if (dt <= cut[c])
				welch_add(&w[c], (int)cls, (double)dt);
	}
	free(warm);
	double worst = 0;
	for (size_t c = 0; c < NT; c++)
		if (fabs(welch_t(&w[c])) > worst)
			worst = fabs(welch_t(&w[c]));
	*tested = samples - nwarm;
	return worst;
}

/* NUM N BASE ELIMBS EXP from the rest of the line */
static void parse_modexp_args(size_t *num, size_t *elimbs)
{
	*num = parse_size(word());
	if (*num == 0 || *num > MONT_MAX_NUM)
		fail("num out of range", "modexp");
	parse_set(nbuf, abuf, ebuf, *num, elimbs);
}

/* Deterministic full-size operands for the time commands. */
static void time_operands(size_t num)
{
	for (size_t i = 0; i < num; i++) {
		nbuf[i] = 0x9e3779b97f4a7c15u * (i + 1) | 1 | (uint64_t)1 << 63;
		abuf[i] = nbuf[i] >> 1;
		ebuf[i] = 0xd1b54a32d192ed03u * (i + 7) | (uint64_t)1 << 63;
		n2buf[i] = nbuf[i] ^ 0x5a5a5a5a5a5a5a5au;
		a2buf[i] = n2buf[i] >> 2;
		e2buf[i] = ebuf[i] ^ 0x0123456789abcdefu;
	}
}

/* The buffer a modexp2-alias name stands for (r: the result's own). */
static uint64_t *alias_buf(const char *w, uint64_t *own)
{
	static const struct { const char *name; uint64_t *buf; } bufs[] = {
		{"b1", abuf}, {"e1", ebuf}, {"n1", nbuf},
		{"b2", a2buf}, {"e2", e2buf}, {"n2", n2buf},
	};
	if (w && !strcmp(w, "r"))
		return own;
	for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
		if (w && !strcmp(w, bufs[i].name))
			return bufs[i].buf;
	fail("modexp2-alias: not r|b1|e1|n1|b2|e2|n2", w);
	return NULL;
}

static void print_rc(int rc, const uint64_t *r, size_t num)
{
	printf("%d ", rc);
	if (rc)
		puts("-");
	else
		print_hex(r, num);
}

/* Each command reads its own words; cmd is its name (one function may
 * serve several). */
static void do_select(const char *cmd)
{
	(void)cmd;
	printf("%d\n", mont_select(word()));
}

static void do_backend(const char *cmd)
{
	(void)cmd;
	puts(mont_backend());
}

static void do_adxsqr(const char *cmd)
{
	(void)cmd;
	printf("%d\n", mont_adx_sqr_blocks());
}

static void do_n0(const char *cmd)
{
	(void)cmd;
	parse_hex(nbuf, 1, word());
	print_hex((uint64_t[]){mont_n0(nbuf[0])}, 1);
}

/* mul N A B, sqr N A, and the aliased forms (the result over A). */
static void do_mul(const char *cmd)
{
	size_t num = parse_size(word());
	if (num == 0 || num > MAXL)	/* > MONT_MAX_NUM: the library's check */
		fail("num out of range", cmd);
	parse_hex(nbuf, num, word());
	parse_hex(abuf, num, word());
	uint64_t n0 = mont_n0(nbuf[0]);
	if (!strcmp(cmd, "mul")) {
		parse_hex(bbuf, num, word());
		mont_mul(rbuf, abuf, bbuf, nbuf, n0, num);
		print_hex(rbuf, num);
	} else if (!strcmp(cmd, "sqr")) {
		mont_sqr(rbuf, abuf, nbuf, n0, num);
		print_hex(rbuf, num);
	} else {
		if (!strcmp(cmd, "mulalias"))
			mont_mul(abuf, abuf, abuf, nbuf, n0, num);
		else
			mont_sqr(abuf, abuf, nbuf, n0, num);
		print_hex(abuf, num);
	}
}

static void do_modexp(const char *cmd)
{
	size_t num, elimbs;
	(void)cmd;
	parse_modexp_args(&num, &elimbs);
	print_rc(mont_modexp(rbuf, abuf, ebuf, elimbs, nbuf, num), rbuf, num);
}

/* modexp2 SET SET, or modexp2-alias R1 R2 SET SET (results over inputs). */
static void do_modexp2(const char *cmd)
{
	uint64_t *r1 = rbuf, *r2 = r2buf;
	size_t num, el1, el2;
	if (!strcmp(cmd, "modexp2-alias")) {
		r1 = alias_buf(word(), rbuf);
		r2 = alias_buf(word(), r2buf);
	}
	parse_modexp_args(&num, &el1);
	parse_set(n2buf, a2buf, e2buf, num, &el2);
	int rc = mont_modexp2(r1, abuf, ebuf, el1, nbuf, r2, a2buf, e2buf, el2, n2buf, num);
	printf("%d ", rc);
	if (rc) {
		puts("- -");
	} else {
		put_hex(r1, num);
		putchar(' ');
		print_hex(r2, num);
	}
}

/* ifma SET, ifma2 SET SET: the IFMA kernels alone, or "none". */
static void do_ifma(const char *cmd)
{
	int ways = !strcmp(cmd, "ifma2") ? 2 : 1;
	struct mont_ifma k;
	size_t num, el[2];
	parse_modexp_args(&num, &el[0]);
	if (ways == 2)
		parse_set(n2buf, a2buf, e2buf, num, &el[1]);
	if (!mont_ifma_kernel(num, ways, &k)) {
		puts("none");
		return;
	}
	uint64_t *const r[2] = {rbuf, r2buf};
	const uint64_t *const b[2] = {abuf, a2buf};
	const uint64_t *const e[2] = {ebuf, e2buf};
	const uint64_t *const n[2] = {nbuf, n2buf};
	mont_ifma_modexp(ways, r, b, e, el, n, num, &k);
	put_hex(rbuf, num);
	if (ways == 2) {
		putchar(' ');
		put_hex(r2buf, num);
	}
	putchar('\n');
}

/* NUM COUNT ELIMBS, then COUNT times N B E (every E of ELIMBS limbs);
 * the r buffers are filled with 0xcc to show whether a call wrote them. */
static void parse_batch(size_t *num, size_t *count, size_t *elimbs)
{
	*num = parse_size(word());
	*count = parse_size(word());
	*elimbs = parse_size(word());
	if (*num == 0 || *num > MONT_MAX_NUM || *count == 0 || *count > MONT_BATCH_MAX ||
	    *elimbs > MAXL)
		fail("batch: NUM COUNT ELIMBS out of range", "batch");
	for (size_t i = 0; i < *count; i++) {
		parse_hex(bat_n[i], *num, word());
		parse_hex(bat_b[i], *num, word());
		parse_hex(bat_e[i], *elimbs, word());
	}
	memset(bat_r, 0xcc, sizeof bat_r);
}

/* The buffer of lane i's result for batch HOW: its own, or (alias-*) an
 * input's: its base, exponent or modulus, or the next lane's base. */
static uint64_t *batch_r(const char *how, size_t i, size_t count)
{
	if (!strcmp(how, "alias-base"))
		return bat_b[i];
	if (!strcmp(how, "alias-exp"))
		return bat_e[i];
	if (!strcmp(how, "alias-n"))
		return bat_n[i];
	if (!strcmp(how, "alias-cross"))
		return bat_b[(i + 1) % count];
	return bat_r[i];
}

/* batch HOW NUM COUNT ELIMBS SETS: HOW api (mont_modexp_batch: "RC R..."),
 * alias-base|exp|n|cross (the same with r[i] in an input's buffer), ifma
 * (the 8-lane IFMA exponentiation alone: "R...", or "none"). */
static void do_batch(const char *cmd)
{
	const char *how = word();
	size_t num, count, elimbs;
	uint64_t *r[MONT_BATCH_MAX];
	const uint64_t *b[MONT_BATCH_MAX], *e[MONT_BATCH_MAX], *n[MONT_BATCH_MAX];
	int rc = 0;

	if (!how)
		fail("batch: HOW missing", cmd);
	parse_batch(&num, &count, &elimbs);
	for (size_t i = 0; i < count; i++) {
		r[i] = batch_r(how, i, count);
		b[i] = bat_b[i], e[i] = bat_e[i], n[i] = bat_n[i];
	}
	if (!strcmp(how, "ifma")) {
		if (!mont_ifma_batch_kernel(num)) {
			puts("none");
			return;
		}
		mont_ifma_batch(count, r, b, e, elimbs, n, num);
	} else {
		rc = mont_modexp_batch(count, r, b, e, elimbs, n, num);
		printf("%d", rc);
	}
	for (size_t i = 0; i < count; i++) {
		if (i || strcmp(how, "ifma"))
			putchar(' ');
		if (rc)
			putchar('-');
		else
			put_hex(r[i], num);
	}
	putchar('\n');
}

/* batch-err WHAT NUM COUNT ELIMBS SETS: mont_modexp_batch with one thing
 * made wrong -- count9, the arrays (r, base, exp, n) NULL, r1 (r[1] NULL),
 * dup (r[1] == r[0]), num0, numbig -- or none: "RC" and whether any r
 * buffer was written ("untouched"/"written"). */
static void do_batch_err(const char *cmd)
{
	const char *what = word();
	size_t num, count, elimbs;
	uint64_t *r[MONT_BATCH_MAX + 1];
	const uint64_t *b[MONT_BATCH_MAX + 1], *e[MONT_BATCH_MAX + 1], *n[MONT_BATCH_MAX + 1];
	static uint64_t fresh[MONT_BATCH_MAX][MAXL];

	if (!what)
		fail("batch-err: WHAT missing", cmd);
	parse_batch(&num, &count, &elimbs);
	for (size_t i = 0; i <= MONT_BATCH_MAX; i++) {
		size_t j = i % count;
		r[i] = bat_r[i % MONT_BATCH_MAX], b[i] = bat_b[j], e[i] = bat_e[j], n[i] = bat_n[j];
	}
	if (!strcmp(what, "r1"))
		r[1] = NULL;
	if (!strcmp(what, "dup"))
		r[1] = r[0];
	memcpy(fresh, bat_r, sizeof fresh);
	int rc = mont_modexp_batch(!strcmp(what, "count9") ? MONT_BATCH_MAX + 1 : count,
	                           !strcmp(what, "r") ? NULL : r, !strcmp(what, "base") ? NULL : b,
	                           !strcmp(what, "exp") ? NULL : e, elimbs,
	                           !strcmp(what, "n") ? NULL : n,
	                           !strcmp(what, "num0") ? 0 : !strcmp(what, "numbig") ?
	                           MONT_MAX_NUM + 1 : num);
	printf("%d %s\n", rc, memcmp(fresh, bat_r, sizeof fresh) ? "written" : "untouched");
}

/* batch-path NUM COUNT: 1 when mont_modexp_batch runs the 8-lane IFMA
 * code for them (the backend, size and count decide), else 0. */
static void do_batch_path(const char *cmd)
{
	size_t num = parse_size(word()), count = parse_size(word());
	(void)cmd;
	printf("%d\n", mont_ifma_batch_for(num, count));
}

/* time-batch NUM COUNT REPS: "NS_LANES NS_LOOP", the best time of COUNT
 * full-size exponentiations in the 8-lane IFMA code and as a loop over
 * mont_modexp (which runs the backend's single exponentiation). */
static void do_time_batch(const char *cmd)
{
	size_t num = parse_size(word()), count = parse_size(word());
	size_t reps = parse_size(word());
	uint64_t *r[MONT_BATCH_MAX];
	const uint64_t *b[MONT_BATCH_MAX], *e[MONT_BATCH_MAX], *n[MONT_BATCH_MAX];
	double best[2] = {0, 0};

	if (!mont_ifma_batch_kernel(num) || count == 0 || count > MONT_BATCH_MAX || !reps)
		fail("time-batch: no 8-lane kernel for num, or count/reps out of range", cmd);
	time_operands(num);
	for (size_t i = 0; i < count; i++)
		r[i] = bat_r[i], b[i] = abuf, e[i] = ebuf, n[i] = nbuf;
	for (size_t i = 0; i < 2 * reps; i++) {
		double t0 = now_ns();
		if (i % 2)
			for (size_t k = 0; k < count; k++)
				mont_modexp(r[k], b[k], e[k], num, n[k], num);
		else
			mont_ifma_batch(count, r, b, e, num, n, num);
		double t = now_ns() - t0;
		if (i < 2 || t < best[i % 2])
			best[i % 2] = t;
	}
	printf("%.0f %.0f\n", best[0], best[1]);
}

/* kernel NUM WAYS: which IFMA kernels serve num limbs, ways at once
 * (mont_ifma_kernel); ifmafor NUM WAYS: which mont_modexp/mont_modexp2 run
 * (mont_ifma_for: the backend, the crossover, the n' choice). */
static void do_kernel(const char *cmd)
{
	size_t num = parse_size(word());
	int ways = (int)parse_size(word());
	struct mont_ifma k;
	if (!(strcmp(cmd, "kernel") ? mont_ifma_for : mont_ifma_kernel)(num, ways, &k))
		puts("none");
	else
		printf("%s %zu %zu%s%.0zu%s\n", k.two ? "packed" : "one", k.L, k.span,
		       k.one_f ? " prime " : "", k.lf, k.sqr2 || k.sqr1 ? " square" : "");
}

static void do_dudect(const char *cmd)
{
	const char *what = word();
	size_t num = parse_size(word());
	size_t samples = parse_size(word()), tested;
	uint64_t seed = parse_size(word());
	if (!what || num == 0 || num > MONT_MAX_NUM || samples < 100)
		fail("dudect: WHAT NUM SAMPLES(>=100) SEED", cmd);
	double t = dudect(what, num, samples, seed, &tested);
	printf("%.2f %zu\n", t, tested);
}

/* time2 NUM REPS: the best of one modexp and of one modexp2, interleaved. */
static void do_time2(const char *cmd)
{
	size_t num = parse_size(word());
	size_t reps = parse_size(word());
	if (num == 0 || num > MONT_MAX_NUM || reps == 0)
		fail("time2: num or reps out of range", cmd);
	time_operands(num);
	double best[2] = {0, 0};
	for (size_t i = 0; i < 2 * reps; i++) {
		double t0 = now_ns();
		if (i % 2)
			mont_modexp2(rbuf, abuf, ebuf, num, nbuf, r2buf, a2buf, e2buf, num, n2buf, num);
		else
			mont_modexp(rbuf, abuf, ebuf, num, nbuf, num);
		double t = now_ns() - t0;
		if (i < 2 || t < best[i % 2])
			best[i % 2] = t;
	}
	printf("%.0f %.0f\n", best[0], best[1]);
}

static void do_modexp_alias(const char *cmd)
{
	char *what = word();
	size_t num, elimbs;
	(void)cmd;
	parse_modexp_args(&num, &elimbs);
	uint64_t *r = !strcmp(what, "base") ? abuf :
	              !strcmp(what, "exp") ? ebuf :
	              !strcmp(what, "n") ? nbuf : NULL;
	if (!r)
		fail("modexp-alias: not base|exp|n", what);
	print_rc(mont_modexp(r, abuf, ebuf, elimbs, nbuf, num), r, num);
}

static void do_modexp_null(const char *cmd)
{
	char *what = word();
	uint64_t n = 7, base = 3, e = 5, r = 0;
	(void)cmd;
	if (!what)
		fail("modexp-null: missing which", what);
	if (!strcmp(what, "exp0"))
		print_rc(mont_modexp(&r, &base, NULL, 0, &n, 1), &r, 1);
	else
		printf("%d\n", mont_modexp(!strcmp(what, "r") ? NULL : &r,
		                           !strcmp(what, "base") ? NULL : &base,
		                           !strcmp(what, "exp") ? NULL : &e, 1,
		                           !strcmp(what, "n") ? NULL : &n, 1));
}

static void do_modexp_bad(const char *cmd)
{
	size_t num = parse_size(word());
	if (num > MAXL)
		fail("num too large for the harness", cmd);
	/* num 0 is the error under test: read the values as 1 limb */
	parse_hex(nbuf, num ? num : 1, word());
	parse_hex(abuf, num ? num : 1, word());
	ebuf[0] = 3;
	printf("%d\n", mont_modexp(rbuf, abuf, ebuf, 1, nbuf, num));
}

static void do_window(const char *cmd)
{
	unsigned w = (unsigned)parse_size(word());
	size_t num, elimbs;
	if (w < 1 || w > MONT_WINDOW_MAX)
		fail("window out of range", cmd);
	parse_modexp_args(&num, &elimbs);
	mont_modexp_unchecked(rbuf, abuf, ebuf, elimbs, nbuf, num, w);
	print_hex(rbuf, num);
}

/* ct SET (the library) or ct-leaky SET (a deliberately leaky reference):
 * base and exponent marked secret for valgrind. */
static void do_ct(const char *cmd)
{
	size_t num, elimbs;
	parse_modexp_args(&num, &elimbs);
	VALGRIND_MAKE_MEM_UNDEFINED(abuf, num * sizeof *abuf);
	VALGRIND_MAKE_MEM_UNDEFINED(ebuf, elimbs * sizeof *ebuf);
	if (!strcmp(cmd, "ct"))
		mont_modexp_unchecked(rbuf, abuf, ebuf, elimbs, nbuf, num, mont_window_bits(num));
	else
		leaky_modexp(rbuf, abuf, ebuf, elimbs, nbuf, num);
	/* the result is as secret as its inputs; printing it is ours */
	VALGRIND_MAKE_MEM_DEFINED(rbuf, num * sizeof *rbuf);
	print_hex(rbuf, num);
}

static void do_threads(const char *cmd)
{
	size_t threads = parse_size(word());
	size_t iter = parse_size(word());
	size_t num, elimbs;
	(void)cmd;
	parse_modexp_args(&num, &elimbs);
	printf("%zu\n", run_threads(threads, iter, num, elimbs));
}

/* time NUM WINDOW REPS: the best modexp time with that window. */
static void do_time(const char *cmd)
{
	size_t num = parse_size(word());
	unsigned w = (unsigned)parse_size(word());
	size_t reps = parse_size(word());
	if (num == 0 || num > MONT_MAX_NUM || w < 1 || w > MONT_WINDOW_MAX)
		fail("time: num or window out of range", cmd);
	time_operands(num);
	double best = 0;
	for (size_t i = 0; i < reps; i++) {
		double t0 = now_ns();
		mont_modexp_unchecked(rbuf, abuf, ebuf, num, nbuf, num, w);
		double t = now_ns() - t0;
		if (i == 0 || t < best)
			best = t;
	}
	printf("%.0f\n", best);
}

static const struct {
	const char *name;
	void (*fn)(const char *cmd);
} commands[] = {
	{"select", do_select}, {"backend", do_backend}, {"adxsqr", do_adxsqr}, {"n0", do_n0},
	{"mul", do_mul}, {"sqr", do_mul}, {"mulalias", do_mul}, {"sqralias", do_mul},
	{"modexp", do_modexp}, {"modexp2", do_modexp2}, {"modexp2-alias", do_modexp2},
	{"ifma", do_ifma}, {"ifma2", do_ifma}, {"kernel", do_kernel}, {"ifmafor", do_kernel}, {"dudect", do_dudect},
	{"time2", do_time2},
	{"modexp-alias", do_modexp_alias}, {"modexp-null", do_modexp_null}, {"modexp-bad", do_modexp_bad},
	{"batch", do_batch}, {"batch-err", do_batch_err}, {"batch-path", do_batch_path},
	{"time-batch", do_time_batch},
	{"window", do_window}, {"ct", do_ct}, {"ct-leaky", do_ct}, {"threads", do_threads}, {"time", do_time},
};

static void run(char *line)
{
	char *cmd = strtok(line, " \n");
	size_t i = 0, n = sizeof commands / sizeof *commands;

	if (!cmd)
		return;
	while (i < n && strcmp(cmd, commands[i].name))
		i++;
	if (i == n)
		fail("unknown command", cmd);
	commands[i].fn(cmd);
	fflush(stdout);
}

/* One line of any length into *line (grown as needed); 0 at end of input.
 * fgets, not getline: the harness also runs as a Windows program. */
static int read_line(char **line, size_t *cap)
{
	size_t len = 0;

	for (;;) {
		if (*cap - len < 2) {
			char *p = realloc(*line, *cap ? 2 * *cap : 4096);
			if (!p)
				fail("out of memory", "reading a line");
			*line = p;
			*cap = *cap ? 2 * *cap : 4096;
		}
		if (!fgets(*line + len, (int)(*cap - len), stdin))
			return len > 0;
		len += strlen(*line + len);
		if ((*line)[len - 1] == '\n')
			return 1;
	}
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;

	while (read_line(&line, &cap))
		run(line);
	free(line);
	return 0;
}
