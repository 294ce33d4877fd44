/* SPDX-License-Identifier: MIT */
/* montbench: check that every contender agrees, then time them in
 * interleaved rounds; OpenSSL is timed a second time in a re-executed child
 * with its ADX path masked, and merged into the same report. */
#include <errno.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include "bench.h"

/* Word 2 of OpenSSL's capability vector is CPUID(7,0).EBX; after ':' the
 * environment variable edits that word. ~0x280120 clears BMI2 (0x100), ADX
 * (0x80000), AVX2 (0x20) and AVX512IFMA (0x200000): pure MUL/ADC code. */
extern unsigned int OPENSSL_ia32cap_P[4];
#define NOADX_MASK ":~0x280120"

#define MAX_BITS 8
#define MAX_ROUNDS 101
#define CHAIN_STEPS 3           /* mul/sqr steps compared by the check */
#define NO_CONTENDER ((size_t)-1)

struct opts {
	unsigned bits[MAX_BITS];
	size_t nbits;
	unsigned rounds;
	uint64_t seed;
	int quick, json, child, callgrind;
	int want_op[OP_COUNT];
	int want[2 * MAX_CONTENDERS];   /* [c]; [ncontenders + c]: c-noadx */
	const char *corrupt;    /* test-only: flip a bit of this one's result */
	const char *bits_arg, *only_arg;
};

static const char *self = "montbench";
static const char *self_path;   /* argv[0], to re-execute ourselves */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--bits LIST] [--rounds N] [--quick] [--json]\n"
		"          [--only LIST] [--seed N] [--callgrind] [--corrupt NAME]\n"
		"  LIST is comma-separated. --only takes op names (mul, sqr, modexp,\n"
		"  modexp2, batch8) and contender names (ifma, adx, mulq, c, amm52, amm52x2,\n"
		"  ossl-api, ossl-raw, ossl-x2, gmp, ossl-api-noadx, ossl-raw-noadx; built by\n"
		"  make bench-peers also ossl4-api, ossl4-x2: OpenSSL 4.0.2).\n", self);
}

static int parse_uint(const char *opt, const char *s, unsigned long lo,
		      unsigned long hi, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < lo || v > hi) {
		fprintf(stderr, "%s: %s: '%s' is not a number in %lu..%lu\n",
			self, opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_bits(struct opts *o, const char *list)
{
	char buf[256], *save, *tok;
	if (strlen(list) >= sizeof buf) {
		fprintf(stderr, "%s: --bits: list too long\n", self);
		return -1;
	}
	strcpy(buf, list);
	o->nbits = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long v;
		if (o->nbits == MAX_BITS) {
			fprintf(stderr, "%s: --bits: at most %d sizes\n", self,
				MAX_BITS);
			return -1;
		}
		if (parse_uint("--bits", tok, 512, 8192, &v))
			return -1;
		/* bn_power5 and OpenSSL's 8x kernels need num % 8 == 0 */
		if (v % 512) {
			fprintf(stderr, "%s: --bits: %lu is not a multiple of "
				"512\n", self, v);
			return -1;
		}
		o->bits[o->nbits++] = (unsigned)v;
	}
	if (!o->nbits) {
		fprintf(stderr, "%s: --bits: empty list\n", self);
		return -1;
	}
	return 0;
}

static size_t contender_index(const char *name)
{
	for (size_t i = 0; i < ncontenders; i++)
		if (!strcmp(contenders[i].name, name))
			return i;
	return NO_CONTENDER;
}

/* "ossl-api-noadx" -> index of "ossl-api" among contenders, else NONE */
static size_t noadx_index(const char *name)
{
	size_t len = strlen(name);
	char base[32];
	if (len < 7 || len >= sizeof base || strcmp(name + len - 6, "-noadx"))
		return NO_CONTENDER;
	memcpy(base, name, len - 6);
	base[len - 6] = 0;
	size_t i = contender_index(base);
	return i != NO_CONTENDER && contender_is_openssl(&contenders[i]) ? i
		: NO_CONTENDER;
}

static int parse_only(struct opts *o, const char *list)
{
	char buf[256], *save, *tok;
	int any_op = 0, any_c = 0;
	int op_w[OP_COUNT] = { 0 }, c_w[2 * MAX_CONTENDERS] = { 0 };
	if (strlen(list) >= sizeof buf) {
		fprintf(stderr, "%s: --only: list too long\n", self);
		return -1;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		int op;
		for (op = 0; op < OP_COUNT && strcmp(op_name[op], tok); op++)
			;
		if (op < OP_COUNT) {
			op_w[op] = any_op = 1;
		} else if ((i = contender_index(tok)) != NO_CONTENDER) {
			c_w[i] = any_c = 1;
		} else if ((i = noadx_index(tok)) != NO_CONTENDER) {
			c_w[ncontenders + i] = any_c = 1;
		} else {
			fprintf(stderr, "%s: --only: unknown op or contender "
				"'%s'\n", self, tok);
			usage(stderr);
			return -1;
		}
	}
	if (any_op)
		memcpy(o->want_op, op_w, sizeof op_w);
	if (any_c)
		memcpy(o->want, c_w, sizeof c_w);
	return 0;
}

static int parse_args(struct opts *o, int argc, char **argv)
{
	unsigned long v;
	int rounds_set = 0;
	memset(o, 0, sizeof *o);
	o->seed = 1;
	for (int i = 0; i < OP_COUNT; i++)
		o->want_op[i] = 1;
	for (size_t i = 0; i < 2 * ncontenders; i++)
		o->want[i] = i < ncontenders
			|| contender_is_openssl(&contenders[i - ncontenders]);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int takes = !strcmp(a, "--bits") || !strcmp(a, "--rounds")
			|| !strcmp(a, "--only") || !strcmp(a, "--seed")
			|| !strcmp(a, "--corrupt");
		if (takes && i + 1 >= argc) {
			fprintf(stderr, "%s: %s needs a value\n", self, a);
			return -1;
		}
		if (!strcmp(a, "--bits")) {
			o->bits_arg = argv[++i];
		} else if (!strcmp(a, "--rounds")) {
			if (parse_uint(a, argv[++i], 1, MAX_ROUNDS, &v))
				return -1;
			o->rounds = (unsigned)v;
			rounds_set = 1;
		} else if (!strcmp(a, "--only")) {
			o->only_arg = argv[++i];
		} else if (!strcmp(a, "--seed")) {
			if (parse_uint(a, argv[++i], 0, ~0ul, &v))
				return -1;
			o->seed = v;
		} else if (!strcmp(a, "--corrupt")) {
			o->corrupt = argv[++i];
		} else if (!strcmp(a, "--quick")) {
			o->quick = 1;
		} else if (!strcmp(a, "--json")) {
			o->json = 1;
		} else if (!strcmp(a, "--callgrind")) {
			o->callgrind = 1;
		} else if (!strcmp(a, "--child")) {
			o->child = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else {
			fprintf(stderr, "%s: unknown option '%s'\n", self, a);
			usage(stderr);
			return -1;
		}
	}
	if (parse_bits(o, o->bits_arg ? o->bits_arg : "1024,2048,3072,4096"))
		return -1;
	if (o->only_arg && parse_only(o, o->only_arg))
		return -1;
	if (o->corrupt && contender_index(o->corrupt) == NO_CONTENDER) {
		fprintf(stderr, "%s: --corrupt: unknown contender '%s'\n", self,
			o->corrupt);
		return -1;
	}
	if (!rounds_set)
		o->rounds = o->quick ? 3 : 9;
	return 0;
}

/* ---- the agreement check ---- */

struct size_state {
	struct operands o;
	void *st[MAX_CONTENDERS];       /* per contender; NULL: unavailable */
	char why[MAX_CONTENDERS][48];
};

/* A contender that this process runs at all: the child runs OpenSSL only. */
static int in_process(const struct opts *o, size_t c)
{
	return !o->child || contender_is_openssl(&contenders[c]);
}

static int check_one(const struct opts *o, struct size_state *s, size_t c,
		     enum op op, const uint64_t *want, uint64_t *got)
{
	const struct contender *k = &contenders[c];
	unsigned steps = OP_IS_EXP(op) ? 1 : CHAIN_STEPS;
	if (k->activate)
		k->activate(k);
	k->reset(s->st[c]);
	k->run(s->st[c], op, steps);
	int rc = k->result(s->st[c], op, got);
	/* the last limb of the last result: a check of fewer results misses it */
	if (o->corrupt && !strcmp(o->corrupt, k->name))
		got[OP_RESULTS(op) * s->o.num - 1] ^= 1;
	if (rc) {
		fprintf(stderr, "%s: %s %s at %u bits: the call reported "
			"failure\n", self, k->name, op_name[op], s->o.bits);
		return -1;
	}
	for (size_t i = 0; i < OP_RESULTS(op) * s->o.num; i++) {
		if (got[i] == want[i])
			continue;
		fprintf(stderr, "%s: %s %s at %u bits disagrees with the "
			"reference (GMP mpz): limb %zu is %016llx, want %016llx\n",
			self, k->name, op_name[op], s->o.bits, i,
			(unsigned long long)got[i], (unsigned long long)want[i]);
		return -1;
	}
	return 0;
}

static int prepare_and_check(const struct opts *o, struct size_state *s,
			     unsigned bits)
{
	int bad = 0;
	if (operands_make(&s->o, bits, o->seed)) {
		fprintf(stderr, "%s: out of memory\n", self);
		return -1;
	}
	uint64_t *want = calloc(OP_RESULTS_MAX * s->o.num, 8),
		 *got = calloc(OP_RESULTS_MAX * s->o.num, 8);
	if (!want || !got) {
		fprintf(stderr, "%s: out of memory\n", self);
		free(want);
		free(got);
		return -1;
	}
	for (size_t c = 0; c < ncontenders; c++) {
		const struct contender *k = &contenders[c];
		const char *why = NULL;
		if (!in_process(o, c))
			continue;
		if ((k->unavailable && (why = k->unavailable(k))) ||
		    (k->unavailable_at && (why = k->unavailable_at(k, bits)))) {
			snprintf(s->why[c], sizeof s->why[c], "%s", why);
			continue;
		}
		if (!(s->st[c] = k->prepare(&s->o))) {
			fprintf(stderr, "%s: %s: setup at %u bits failed\n",
				self, k->name, bits);
			bad = -1;
		}
	}
	for (int op = 0; op < OP_COUNT; op++) {
		reference(&s->o, op, OP_IS_EXP(op) ? 1 : CHAIN_STEPS, want);
		for (size_t c = 0; c < ncontenders; c++)
			if (s->st[c] && contenders[c].has(op)
			    && check_one(o, s, c, op, want, got))
				bad = -1;
	}
	free(want);
	free(got);
	return bad;
}

static void release_size(struct size_state *s)
{
	for (size_t c = 0; c < ncontenders; c++)
		if (s->st[c])
			contenders[c].release(s->st[c]);
	operands_free(&s->o);
}

/* ---- timing ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Iterations per timed batch: enough to fill `target_ns` (one op at least). */
static unsigned long batch_size(const struct contender *k, void *st,
				enum op op, double target_ns)
{
	unsigned long it = 1;
	for (;;) {
		uint64_t t0 = now_ns();
		k->run(st, op, it);
		double dt = (double)(now_ns() - t0);
		if (dt * 4 >= target_ns || it >= (1ul << 30))
			return (unsigned long)(it * target_ns / (dt > 1 ? dt : 1)) + 1;
		it *= 4;
	}
}

struct results {
	struct result *r;
	size_t n, cap;
};

static struct result *add_result(struct results *rs, unsigned bits,
				 enum op op, const char *name)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 64;
		struct result *r = realloc(rs->r, cap * sizeof *r);
		if (!r) {
			fprintf(stderr, "%s: out of memory\n", self);
			exit(3);
		}
		rs->r = r;
		rs->cap = cap;
	}
	struct result *x = &rs->r[rs->n++];
	memset(x, 0, sizeof *x);
	x->bits = bits;
	x->op = op;
	snprintf(x->name, sizeof x->name, "%s", name);
	return x;
}

/* Rounds interleave every (size, op, contender): within a round each
 * contender runs one batch, starting from a different one each round, so
 * a slow patch of the machine spreads over all of them. */
static void time_all(const struct opts *o, struct size_state *ss,
		     struct results *rs)
{
	double target = o->quick ? 2e5 : 2e7;
	static unsigned long iters[MAX_BITS][OP_COUNT][MAX_CONTENDERS];
	static double ns[MAX_BITS][OP_COUNT][MAX_CONTENDERS][MAX_ROUNDS];
	int timed[MAX_BITS][OP_COUNT][MAX_CONTENDERS] = { { { 0 } } };
	static struct steps steps[MAX_BITS][OP_COUNT][MAX_CONTENDERS];
	static int stepped[MAX_BITS][OP_COUNT][MAX_CONTENDERS];

	for (size_t b = 0; b < o->nbits; b++)
		for (int op = 0; op < OP_COUNT; op++)
			for (size_t c = 0; c < ncontenders; c++) {
				const struct contender *k = &contenders[c];
				struct result *x;
				if (!o->want_op[op] || !o->want[c] || !in_process(o, c)
				    || !k->has(op))
					continue;
				if (!ss[b].st[c]) {
					x = add_result(rs, o->bits[b], op, k->name);
					snprintf(x->status, sizeof x->status, "%s",
						 ss[b].why[c][0] ? ss[b].why[c]
						 : "setup failed");
					continue;
				}
				/* counted once, before timing (the child times only) */
				stepped[b][op][c] = !o->child && !OP_IS_EXP(op)
					&& !steps_count(k, ss[b].st[c], op, &steps[b][op][c]);
				if (k->activate)
					k->activate(k);
				k->reset(ss[b].st[c]);
				iters[b][op][c] = batch_size(k, ss[b].st[c], op,
							     target);
				timed[b][op][c] = 1;
			}
	for (unsigned r = 0; r < o->rounds; r++)
		for (size_t b = 0; b < o->nbits; b++)
			for (int op = 0; op < OP_COUNT; op++)
				for (size_t j = 0; j < ncontenders; j++) {
					size_t c = (j + r) % ncontenders;
					const struct contender *k = &contenders[c];
					if (!timed[b][op][c])
						continue;
					if (k->activate)
						k->activate(k);
					uint64_t t0 = now_ns();
					k->run(ss[b].st[c], op, iters[b][op][c]);
					ns[b][op][c][r] = (double)(now_ns() - t0)
						/ (double)iters[b][op][c];
				}
	for (size_t b = 0; b < o->nbits; b++)
		for (int op = 0; op < OP_COUNT; op++)
			for (size_t c = 0; c < ncontenders; c++) {
				double *v = ns[b][op][c];
				if (!timed[b][op][c])
					continue;
				qsort(v, o->rounds, sizeof *v, cmp_double);
				struct result *x = add_result(rs, o->bits[b], op,
							      contenders[c].name);
				x->min = v[0];
				x->max = v[o->rounds - 1];
				x->stepped = stepped[b][op][c];
				x->steps = steps[b][op][c];
				x->med = o->rounds % 2 ? v[o->rounds / 2]
					: (v[o->rounds / 2 - 1] + v[o->rounds / 2]) / 2;
			}
}

/* ---- the masked child ---- */

static void child_report(const struct results *rs)
{
	printf("cap %x\n", OPENSSL_ia32cap_P[2]);
	for (size_t i = 0; i < rs->n; i++) {
		const struct result *x = &rs->r[i];
		if (x->status[0])
			printf("na %u %d %s %s\n", x->bits, (int)x->op, x->name,
			       x->status);
		else
			printf("row %u %d %s %.3f %.3f %.3f\n", x->bits,
			       (int)x->op, x->name, x->med, x->min, x->max);
	}
}

/* The child's command line (into argv[20]): the OpenSSL contenders and
 * the ops asked for, the same rounds, seed, sizes and test knobs.  only,
 * rounds and seed are its buffers. */
static void child_argv(const struct opts *o, const char **argv, char only[256], char rounds[16],
		       char seed[32])
{
	only[0] = 0;
	for (size_t c = 0; c < ncontenders; c++)
		if (o->want[ncontenders + c]) {
			if (only[0])
				strcat(only, ",");
			strcat(only, contenders[c].name);
		}
	for (int op = 0; op < OP_COUNT; op++)
		if (o->want_op[op]) {
			strcat(only, ",");
			strcat(only, op_name[op]);
		}
	snprintf(rounds, 16, "%u", o->rounds);
	snprintf(seed, 32, "%llu", (unsigned long long)o->seed);
	const char *head[] = { self, "--child", "--rounds", rounds, "--seed", seed, "--only", only,
			       "--bits", o->bits_arg ? o->bits_arg : "1024,2048,3072,4096" };
	size_t n = sizeof head / sizeof *head;
	memcpy(argv, head, sizeof head);
	if (o->quick)
		argv[n++] = "--quick";
	if (o->corrupt) {
		argv[n++] = "--corrupt";
		argv[n++] = o->corrupt;
	}
	argv[n] = NULL;
}

/* The child's report (child_report): its CPU bits, and each row as
 * "<name>-noadx". */
static void read_child(FILE *in, struct run_info *ri, struct results *rs)
{
	char line[512];
	while (fgets(line, sizeof line, in)) {
		unsigned bits, cap;
		int op, used;
		char name[24];
		double med, mn, mx;
		struct result *x;
		if (sscanf(line, "cap %x", &cap) == 1) {
			ri->cap_noadx = cap;
			ri->child_ran = 1;
		} else if (sscanf(line, "row %u %d %23s %lf %lf %lf", &bits, &op,
				  name, &med, &mn, &mx) == 6 && op >= 0
			   && op < OP_COUNT) {
			strcat(name, "-noadx");
			x = add_result(rs, bits, op, name);
			x->med = med;
			x->min = mn;
			x->max = mx;
		} else if (sscanf(line, "na %u %d %23s %n", &bits, &op, name,
				  &used) == 3 && op >= 0 && op < OP_COUNT) {
			strcat(name, "-noadx");
			x = add_result(rs, bits, op, name);
			line[strcspn(line, "\n")] = 0;
			snprintf(x->status, sizeof x->status, "%s", line + used);
		}
	}
}

/* The mask was not honoured: the child's rows would be mislabelled. */
static void drop_unmasked(const struct run_info *ri, struct results *rs)
{
	fprintf(stderr, "%s: OPENSSL_ia32cap=%s left ADX/BMI2 on "
		"(word2 %#x); masked rows dropped\n", self, NOADX_MASK,
		ri->cap_noadx);
	size_t k = 0;
	for (size_t i = 0; i < rs->n; i++)
		if (!strstr(rs->r[i].name, "-noadx"))
			rs->r[k++] = rs->r[i];
	rs->n = k;
}

/* Re-execute ourselves with OpenSSL's ADX path masked, time only the
 * OpenSSL contenders there, and add them as "<name>-noadx". Returns the
 * child's exit status (1: its agreement check failed), or 3. */
static int run_child(const struct opts *o, struct run_info *ri,
		     struct results *rs)
{
	char only[256], rounds[16], seed[32];
	const char *argv[20];
	int fd[2];
	child_argv(o, argv, only, rounds, seed);
	fflush(NULL);
	if (pipe(fd)) {
		fprintf(stderr, "%s: pipe: %s\n", self, strerror(errno));
		return 3;
	}
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", self, strerror(errno));
		return 3;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		setenv("OPENSSL_ia32cap", NOADX_MASK, 1);
		/* argv[0], not /proc/self/exe: under valgrind that is the tool */
		execvp(self_path, (char **)argv);
		fprintf(stderr, "%s: re-exec %s: %s\n", self, self_path,
			strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	FILE *in = fdopen(fd[0], "r");
	if (in) {
		read_child(in, ri, rs);
		fclose(in);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st)) {
		fprintf(stderr, "%s: the OpenSSL-masked child died\n", self);
		return 3;
	}
	if (ri->child_ran && (ri->cap_noadx & 0x80100u))
		drop_unmasked(ri, rs);
	return WEXITSTATUS(st);
}

/* ---- callgrind: instruction counts instead of time ---- */

static void count_all(const struct opts *o, struct size_state *ss)
{
	printf("montbench --callgrind: OpenSSL ia32cap word2 %#x (MULX paths "
	       "%s)\n", OPENSSL_ia32cap_P[2], (OPENSSL_ia32cap_P[2] & OSSL_CAP_MULX)
	       == OSSL_CAP_MULX ? "on" : "off");
	for (size_t b = 0; b < o->nbits; b++)
		for (int op = 0; op < OP_COUNT; op++)
			for (size_t c = 0; c < ncontenders; c++) {
				const struct contender *k = &contenders[c];
				unsigned long it = OP_IS_EXP(op) ? 1 : 10;
				char desc[96];
				if (!o->want_op[op] || !o->want[c] || !ss[b].st[c]
				    || !k->has(op))
					continue;
				if (k->activate)
					k->activate(k);
				k->reset(ss[b].st[c]);
				k->run(ss[b].st[c], op, 1);     /* warm, lazy init */
				CALLGRIND_ZERO_STATS;
				CALLGRIND_TOGGLE_COLLECT;
				k->run(ss[b].st[c], op, it);
				CALLGRIND_TOGGLE_COLLECT;
				snprintf(desc, sizeof desc, "montbench %u %s %s %lu",
					 o->bits[b], op_name[op], k->name, it);
				CALLGRIND_DUMP_STATS_AT(desc);
			}
}

/* The OpenSSL versions linked, for the record. */
static const char *openssl_versions(void)
{
#ifdef BENCH_OSSL4
	static char both[200];
	snprintf(both, sizeof both, "%s; ossl4-*: %s", OSSL_FN(3, version)(),
		 OSSL_FN(4, version)());
	return both;
#else
	return OSSL_FN(3, version)();
#endif
}

int main(int argc, char **argv)
{
	struct opts o;
	struct run_info ri = { 0 };
	struct results rs = { 0 };
	static struct size_state ss[MAX_BITS];
	int status = 0;

	self_path = argv[0];
	if (parse_args(&o, argc, argv))
		return 2;
	if (o.callgrind && !RUNNING_ON_VALGRIND) {
		fprintf(stderr, "%s: --callgrind counts instructions under "
			"valgrind --tool=callgrind --collect-atstart=no "
			"(make bench-callgrind)\n", self);
		return 2;
	}
	ri.rounds = o.rounds;
	ri.seed = o.seed;
	ri.quick = o.quick;
	ri.cap = OPENSSL_ia32cap_P[2];
	ri.openssl = openssl_versions();
	ri.gmp = gmp_version;
	ri.cpu = o.callgrind ? -1 : pin_one_cpu();
	if (ri.cpu < 0 && !o.callgrind && !o.child)
		fprintf(stderr, "%s: could not pin to one CPU; timings will "
			"be noisier\n", self);

	/* every contender agrees on every size before anything is timed */
	for (size_t b = 0; b < o.nbits; b++)
		if (prepare_and_check(&o, &ss[b], o.bits[b]))
			status = 1;
	if (status) {
		fprintf(stderr, "%s: contenders disagree; nothing timed\n", self);
	} else if (o.callgrind) {
		count_all(&o, ss);
	} else {
		if (!o.child) {
			ri.ghz = core_ghz(o.quick ? 20 : 200);
			issue_rates(&ri);
		}
		time_all(&o, ss, &rs);
	}
	for (size_t b = 0; b < o.nbits; b++)
		release_size(&ss[b]);
	if (status || o.callgrind)
		return status;
	if (o.child) {
		child_report(&rs);
		free(rs.r);
		return 0;
	}
	int want_child = 0;
	for (size_t c = 0; c < ncontenders; c++)
		want_child |= o.want[ncontenders + c];
	if (want_child) {
		int st = run_child(&o, &ri, &rs);
		if (st == 1)
			status = 1;
		else if (st)
			fprintf(stderr, "%s: the OpenSSL-masked child failed "
				"(exit %d); its rows are missing\n", self, st);
	}
	ri.ghz_end = core_ghz(o.quick ? 20 : 200);
	if (o.json)
		report_json(&ri, rs.r, rs.n);
	else
		report_table(&ri, rs.r, rs.n);
	free(rs.r);
	return status;
}
