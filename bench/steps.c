/* SPDX-License-Identifier: MIT */
/* Instructions one product executes, counted by single-stepping it: the
 * trap flag (EFLAGS.TF, Intel SDM vol. 3, 18.3.1.4) raises a debug trap
 * after every instruction, delivered as SIGTRAP, whose handler counts
 * and looks at the next instruction's bytes for MULX, MUL and VPMADD52. Any
 * code is counted so, OpenSSL's too, where the CPU runs it (valgrind,
 * the other counter here, cannot run AVX-512 and hides ADX). */
#define _GNU_SOURCE	/* REG_RIP */
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include "bench.h"

#if defined(__x86_64__) && defined(__linux__)
static volatile unsigned long n_insns, n_mulx, n_mulq, n_madd;
static volatile uintptr_t last_ip;

/* Legacy prefixes a VEX or EVEX instruction may follow: segment, address
 * size (66, F2, F3 and REX may not precede one). */
static const unsigned char *skip_prefixes(const unsigned char *p)
{
	while (memchr("\x26\x2e\x36\x3e\x64\x65\x67", *p, 7))
		p++;
	return p;
}

/* MULX: VEX.LZ.F2.0F38 F6 (always the 3-byte C4 form: map 0F38). */
static int is_mulx(const unsigned char *p)
{
	return p[0] == 0xc4 && (p[1] & 0x1f) == 2 && (p[2] & 3) == 3 && p[3] == 0xf6;
}

/* MUL r/m64: REX.W F7 /4. */
static int is_mulq(const unsigned char *p)
{
	return (p[0] & 0xf8) == 0x48 && p[1] == 0xf7 && (p[2] >> 3 & 7) == 4;
}

/* VPMADD52LUQ/HUQ: EVEX.66.0F38.W1 B4/B5, or AVX-IFMA's VEX.66.0F38.W1. */
static int is_madd(const unsigned char *p)
{
	if (p[0] == 0x62)
		return (p[1] & 7) == 2 && (p[2] & 0x83) == 0x81 && (p[4] | 1) == 0xb5;
	return p[0] == 0xc4 && (p[1] & 0x1f) == 2 && (p[2] & 0x83) == 0x81 && (p[3] | 1) == 0xb5;
}

/* A trap at the address of the one before is a REP string instruction
 * repeating (it traps per iteration): one instruction. */
static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	const ucontext_t *uc = ctx;
	uintptr_t ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	const unsigned char *p = skip_prefixes((const unsigned char *)ip);
	(void)sig, (void)si;
	if (ip == last_ip)
		return;
	last_ip = ip;
	n_insns++;
	n_mulx += is_mulx(p);
	n_mulq += is_mulq(p);
	n_madd += is_madd(p);
}

static void trap_on(void)
{
	__asm__ volatile("pushfq\n\torq $0x100,(%%rsp)\n\tpopfq" ::: "cc", "memory");
}

static void trap_off(void)
{
	__asm__ volatile("pushfq\n\tandq $~0x100,(%%rsp)\n\tpopfq" ::: "cc", "memory");
}

/* The counts of run(st, op, it), the steps around it included. */
static void stepped(const struct contender *k, void *st, enum op op,
		    unsigned long it, unsigned long out[4])
{
	n_insns = n_mulx = n_mulq = n_madd = 0;
	last_ip = 0;
	trap_on();
	k->run(st, op, it);
	trap_off();
	out[0] = n_insns, out[1] = n_mulx, out[2] = n_mulq, out[3] = n_madd;
}

int steps_count(const struct contender *k, void *st, enum op op, struct steps *out)
{
	struct sigaction sa, was;
	unsigned long none[4], one[4];

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, &was))
		return -1;
	if (k->activate)
		k->activate(k);
	k->reset(st);
	stepped(k, st, op, 0, none);
	stepped(k, st, op, 1, one);
	sigaction(SIGTRAP, &was, NULL);
	/* one trip of run's loop: the product, its call and the loop's test */
	out->insns = one[0] - none[0];
	out->mulx = one[1] - none[1];
	out->mulq = one[2] - none[2];
	out->madd = one[3] - none[3];
	return 0;
}
#else
int steps_count(const struct contender *k, void *st, enum op op, struct steps *out)
{
	(void)k, (void)st, (void)op, (void)out;
	return -1;
}
#endif
