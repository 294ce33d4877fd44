/* SPDX-License-Identifier: MIT */
/* The AArch64 kernels called through pointers in a program qemu-user runs
 * with BTI enforced (it is marked BTI, so its pages are guarded): a kernel
 * without its `bti c` landing pad dies of SIGILL here.  Freestanding (no
 * libc: the distribution's static libc is not marked BTI).  vectors.h
 * (written by the test) holds NUM, N, N0, A, B and the expected results
 * MUL = A B R^-1 mod N, SQR = A A R^-1 mod N.  Exit status: 0 right,
 * 1 mul wrong, 2 sqr wrong. */
#include <stddef.h>
#include <stdint.h>

#include "mont-kernels.h"
#include "vectors.h"

static _Noreturn void sys_exit(long code)
{
	register long x0 __asm__("x0") = code;
	register long x8 __asm__("x8") = 93;    /* exit */
	for (;;)
		__asm__ volatile("svc #0" : : "r"(x0), "r"(x8));
}

static int differs(const uint64_t *x, const uint64_t *y)
{
	uint64_t d = 0;
	for (size_t i = 0; i < NUM; i++)
		d |= x[i] ^ y[i];
	return d != 0;
}

void _start(void);
void _start(void)
{
	/* volatile: the calls stay indirect (BLR), the kind BTI checks */
	montk_mul_fn *volatile mul = montk_mul_a64;
	montk_sqr_fn *volatile sqr = montk_sqr_a64;
	uint64_t r[NUM];
	mul(r, A, B, N, N0, NUM);
	if (differs(r, MUL))
		sys_exit(1);
	sqr(r, A, N, N0, NUM);
	sys_exit(differs(r, SQR) ? 2 : 0);
}
