/* SPDX-License-Identifier: MIT */
/* Time, the core clock, and pinning to one CPU. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include "bench.h"

#if !defined(__x86_64__)
#error "montbench times x86-64 kernels (OpenSSL's bn_mul_mont, bn_power5)"
#endif

/* This thread's CPU time: on a shared machine the time we sit descheduled
 * is not charged to whichever contender was running (a syscall, ~0.5 us:
 * nothing next to a batch). */
uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* 100 dependent adds per trip: one cycle each, whatever the loop overhead
 * (it runs beside the chain). Register operands, because some cores fold
 * add-immediate chains at rename. The TSC ticks at a fixed rate that is
 * not the core clock, so cycles are derived from this instead. */
static uint64_t add_chain(uint64_t trips)
{
	uint64_t x = 0, one = trips | 1;
	for (; trips; trips--)
		__asm__ volatile(".rept 100\n\taddq %1, %0\n\t.endr"
				 : "+r"(x) : "r"(one));
	return x;
}

double core_ghz(double budget_ms)
{
	uint64_t trips = 10000, best = UINT64_MAX;
	double ghz = 0;
	/* Grow one trial to ~1/6 of the budget, then keep the fastest of 5:
	 * interruptions only ever make a trial slower. */
	for (;;) {
		uint64_t t0 = now_ns();
		add_chain(trips);
		uint64_t dt = now_ns() - t0;
		if (dt * 6.0 >= budget_ms * 1e6 || trips > (1ull << 40))
			break;
		trips *= 2;
	}
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = now_ns();
		add_chain(trips);
		uint64_t dt = now_ns() - t0;
		if (dt < best)
			best = dt;
	}
	if (best)
		ghz = 100.0 * (double)trips / (double)best;
	return ghz;
}

/* Pin to the first CPU we are allowed on (so `taskset -c N` picks it). */
int pin_one_cpu(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		CPU_ZERO(&set);
		CPU_SET(c, &set);
		return sched_setaffinity(0, sizeof set, &set) ? -1 : c;
	}
	return -1;
}
