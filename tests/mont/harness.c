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
#ifdef _WIN32
/* valgrind runs no Windows programs: the ct markings are no-ops there. */
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#else
#include <valgrind/memcheck.h>
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

static void print_hex(const uint64_t *x, size_t num)
{
	size_t i = num;

	while (i > 1 && x[i - 1] == 0)
		i--;
	printf("%llx", i ? (unsigned long long)x[i - 1] : 0ULL);
	while (i-- > 1)
		printf("%016llx", (unsigned long long)x[i - 1]);
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


/* NUM N BASE ELIMBS EXP from the rest of the line */
static void parse_modexp_args(size_t *num, size_t *elimbs)
{
	*num = parse_size(strtok(NULL, " \n"));
	if (*num == 0 || *num > MONT_MAX_NUM)
		fail("num out of range", "modexp");
	parse_hex(nbuf, *num, strtok(NULL, " \n"));
	parse_hex(abuf, *num, strtok(NULL, " \n"));
	*elimbs = parse_size(strtok(NULL, " \n"));
	if (*elimbs > MAXL)
		fail("exponent too long", "modexp");
	parse_hex(ebuf, *elimbs, strtok(NULL, " \n"));
}

static void print_rc(int rc, const uint64_t *r, size_t num)
{
	printf("%d ", rc);
	if (rc)
		puts("-");
	else
		print_hex(r, num);
}

static void run(char *line)
{
	char *cmd = strtok(line, " \n");
	size_t num, elimbs;

	if (!cmd)
		return;
	if (!strcmp(cmd, "select")) {
		printf("%d\n", mont_select(strtok(NULL, " \n")));
	} else if (!strcmp(cmd, "backend")) {
		puts(mont_backend());
	} else if (!strcmp(cmd, "n0")) {
		parse_hex(nbuf, 1, strtok(NULL, " \n"));
		print_hex((uint64_t[]){mont_n0(nbuf[0])}, 1);
	} else if (!strcmp(cmd, "mul") || !strcmp(cmd, "sqr") ||
	           !strcmp(cmd, "mulalias") || !strcmp(cmd, "sqralias")) {
		num = parse_size(strtok(NULL, " \n"));
		if (num == 0 || num > MAXL)	/* > MONT_MAX_NUM: the library's check */
			fail("num out of range", cmd);
		parse_hex(nbuf, num, strtok(NULL, " \n"));
		parse_hex(abuf, num, strtok(NULL, " \n"));
		uint64_t n0 = mont_n0(nbuf[0]);
		if (!strcmp(cmd, "mul")) {
			parse_hex(bbuf, num, strtok(NULL, " \n"));
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
	} else if (!strcmp(cmd, "modexp")) {
		parse_modexp_args(&num, &elimbs);
		print_rc(mont_modexp(rbuf, abuf, ebuf, elimbs, nbuf, num), rbuf, num);
	} else if (!strcmp(cmd, "modexp-alias")) {
		char *what = strtok(NULL, " \n");
		parse_modexp_args(&num, &elimbs);
		uint64_t *r = !strcmp(what, "base") ? abuf :
		              !strcmp(what, "exp") ? ebuf :
		              !strcmp(what, "n") ? nbuf : NULL;
		if (!r)
			fail("modexp-alias: not base|exp|n", what);
		print_rc(mont_modexp(r, abuf, ebuf, elimbs, nbuf, num), r, num);
	} else if (!strcmp(cmd, "modexp-null")) {
		char *what = strtok(NULL, " \n");
		uint64_t n = 7, base = 3, e = 5, r = 0;
		if (!what)
			fail("modexp-null: missing which", what);
		if (!strcmp(what, "exp0"))
			print_rc(mont_modexp(&r, &base, NULL, 0, &n, 1), &r, 1);
		else
			printf("%d\n", mont_modexp(!strcmp(what, "r") ? NULL : &r,
			                           !strcmp(what, "base") ? NULL : &base,
			                           !strcmp(what, "exp") ? NULL : &e, 1,
			                           !strcmp(what, "n") ? NULL : &n, 1));
	} else if (!strcmp(cmd, "modexp-bad")) {
		num = parse_size(strtok(NULL, " \n"));
		if (num > MAXL)
			fail("num too large for the harness", cmd);
		/* num 0 is the error under test: read the values as 1 limb */
		parse_hex(nbuf, num ? num : 1, strtok(NULL, " \n"));
		parse_hex(abuf, num ? num : 1, strtok(NULL, " \n"));
		ebuf[0] = 3;
		printf("%d\n", mont_modexp(rbuf, abuf, ebuf, 1, nbuf, num));
	} else if (!strcmp(cmd, "window")) {
		unsigned w = (unsigned)parse_size(strtok(NULL, " \n"));
		if (w < 1 || w > MONT_WINDOW_MAX)
			fail("window out of range", cmd);
		parse_modexp_args(&num, &elimbs);
		mont_modexp_unchecked(rbuf, abuf, ebuf, elimbs, nbuf, num, w);
		print_hex(rbuf, num);
	} else if (!strcmp(cmd, "ct") || !strcmp(cmd, "ct-leaky")) {
		parse_modexp_args(&num, &elimbs);
		VALGRIND_MAKE_MEM_UNDEFINED(abuf, num * sizeof *abuf);
		VALGRIND_MAKE_MEM_UNDEFINED(ebuf, elimbs * sizeof *ebuf);
		if (!strcmp(cmd, "ct"))
			mont_modexp_unchecked(rbuf, abuf, ebuf, elimbs, nbuf, num,
			                      mont_window_bits(num));
		else
			leaky_modexp(rbuf, abuf, ebuf, elimbs, nbuf, num);
		/* the result is as secret as its inputs; printing it is ours */
		VALGRIND_MAKE_MEM_DEFINED(rbuf, num * sizeof *rbuf);
		print_hex(rbuf, num);
	} else if (!strcmp(cmd, "threads")) {
		size_t threads = parse_size(strtok(NULL, " \n"));
		size_t iter = parse_size(strtok(NULL, " \n"));
		parse_modexp_args(&num, &elimbs);
		printf("%zu\n", run_threads(threads, iter, num, elimbs));
	} else if (!strcmp(cmd, "time")) {
		num = parse_size(strtok(NULL, " \n"));
		unsigned w = (unsigned)parse_size(strtok(NULL, " \n"));
		size_t reps = parse_size(strtok(NULL, " \n"));
		if (num == 0 || num > MONT_MAX_NUM || w < 1 || w > MONT_WINDOW_MAX)
			fail("time: num or window out of range", cmd);
		for (size_t i = 0; i < num; i++) {
			nbuf[i] = 0x9e3779b97f4a7c15u * (i + 1) | 1 | (uint64_t)1 << 63;
			abuf[i] = nbuf[i] >> 1;
			ebuf[i] = 0xd1b54a32d192ed03u * (i + 7) | (uint64_t)1 << 63;
		}
		double best = 0;
		for (size_t i = 0; i < reps; i++) {
			double t0 = now_ns();
			mont_modexp_unchecked(rbuf, abuf, ebuf, num, nbuf, num, w);
			double t = now_ns() - t0;
			if (i == 0 || t < best)
				best = t;
		}
		printf("%.0f\n", best);
	} else {
		fail("unknown command", cmd);
	}
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
