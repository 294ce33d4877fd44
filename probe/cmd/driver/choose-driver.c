/* SPDX-License-Identifier: MIT */
/* The test program `asmcap choose` links with every variant of a spec's
 * source.  asmcap carries this file inside it (build/catalog.c, made by
 * probe/engine/embed-catalog.pl) and compiles it with the toolchain under test:
 *   -DCHOOSE_CHECK=f    uint64_t f(void): the digest of the variant's outputs
 *   -DCHOOSE_BENCH=g    size_t g(size_t iters): bytes done (metric cycles only)
 * `prog check` prints the digest as 16 hex digits; `prog bench` times one
 * sample of about 40 ms and prints core cycles per byte. */
#define _POSIX_C_SOURCE 200809L     /* clock_gettime under a strict -std= */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifndef CHOOSE_CHECK
#error "compile with -DCHOOSE_CHECK=the spec's check function"
#endif

uint64_t CHOOSE_CHECK(void);

#ifdef CHOOSE_BENCH
size_t CHOOSE_BENCH(size_t iters);

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* The core clock, from a dependent add chain (one add per cycle): the TSC
 * ticks at a fixed rate, not the core's.  Elsewhere 1: cycles are then ns. */
static double cycles_per_ns(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned long x = 0;
	double best = 0;
	for (int r = 0; r < 5; r++) {
		double t0 = now();
		for (int i = 0; i < 1000000; i++)
			__asm__ volatile("add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\t"
			                 "add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0" : "+r"(x));
		double c = 8e6 / (now() - t0);
		if (c > best)
			best = c;
	}
	return best;
#else
	return 1.0;
#endif
}

/* Iterations doubled until a run takes 4 ms, scaled to 40 ms, timed once. */
static int bench(void)
{
	size_t it = 1;
	double dt;
	while ((dt = now(), CHOOSE_BENCH(it), dt = now() - dt) < 4e6)
		it *= 2;
	it = (size_t)(it * (40e6 / dt)) + 1;
	double cpn = cycles_per_ns(), t0 = now();
	size_t bytes = CHOOSE_BENCH(it);
	double ns = now() - t0;
	printf("%.6f\n", ns * cpn / (double)bytes);
	return 0;
}
#endif

int main(int argc, char **argv)
{
	unsigned long long d = CHOOSE_CHECK();
	if (argc > 1 && !strcmp(argv[1], "check")) {
		printf("%016llx\n", d);
		return 0;
	}
#ifdef CHOOSE_BENCH
	if (argc > 1 && !strcmp(argv[1], "bench"))
		return bench();
#endif
	return 2;
}
