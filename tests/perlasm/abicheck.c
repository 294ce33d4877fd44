/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "abicheck.h"

static uint64_t seed = 0x9e3779b97f4a7c15u;

static uint64_t sentinel(void)
{
	seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
	return seed;
}

uint64_t abicheck(const char *what, const void *fn, const uint64_t args[6], int win64,
                  int *fails)
{
	static const char *const name[9] = {"rax", "rbx", "rbp", "rdi", "rsi",
	                                    "r12", "r13", "r14", "r15"};
	uint64_t in[29], regs[29];
	char xmm[8];
	for (int i = 0; i < 29; i++)
		in[i] = regs[i] = sentinel();
	abicheck_call(fn, args, regs, win64);
	for (int i = 1; i < 29; i++) {
		/* rdi, rsi and xmm6-xmm15 (regs[9..28]): Win64 only */
		int saved = win64 || (i != 3 && i != 4 && i < 9);
		snprintf(xmm, sizeof xmm, "xmm%d", 6 + (i - 9) / 2);
		if (saved && regs[i] != in[i]) {
			printf("FAIL %s (%s): %s changed %016llx -> %016llx\n", what,
			       win64 ? "win64" : "sysv", i < 9 ? name[i] : xmm,
			       (unsigned long long)in[i], (unsigned long long)regs[i]);
			++*fails;
		}
	}
	return regs[0];
}
