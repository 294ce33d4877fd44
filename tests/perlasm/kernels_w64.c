/* SPDX-License-Identifier: MIT */
/* The Montgomery kernels as translated to elf (SysV) and to elf-win64
 * (symbols prefixed w64_, called through ms_abi): same results on random
 * inputs, and each ABI's callee-saved registers preserved (abicheck).
 * mont-kernels.h (from the generator's --header) says whether the ADX
 * kernels exist; they run only when the CPU has ADX and BMI2.
 * Prints one summary line; exit status 1 when anything differed. */
#include <cpuid.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "abicheck.h"
#include "mont-kernels.h"

typedef uint64_t u64;
#define MS __attribute__((ms_abi))
#define MAXNUM 128

typedef MS void kmul_ms(u64 *r, const u64 *a, const u64 *b, const u64 *n, u64 n0, size_t num);
typedef MS void ksqr_ms(u64 *r, const u64 *a, const u64 *n, u64 n0, size_t num);

kmul_ms w64_montk_mul_mulq;
ksqr_ms w64_montk_sqr_mulq;
#ifdef MONT_HAVE_ADX
kmul_ms w64_montk_mul_adx;
ksqr_ms w64_montk_sqr_adx;
#endif

static u64 state = 0x853c49e6748fea9bu;

static u64 rnd(void)
{
	state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
	return state * 0x2545f4914f6cdd1du;
}

static u64 neg_inverse(u64 n)	/* -n^-1 mod 2^64, n odd (Newton) */
{
	u64 x = n;	/* correct to 3 bits */
	for (int i = 0; i < 5; i++)
		x *= 2 - n * x;
	return -x;
}

static int fails, calls;

struct kernel {
	const char *name;
	const void *sysv, *ms;
	int sqr;
};

static void compare(const struct kernel *k, size_t num)
{
	u64 n[MAXNUM], a[MAXNUM], b[MAXNUM], want[MAXNUM], got[MAXNUM];
	for (size_t i = 0; i < num; i++)
		n[i] = rnd(), a[i] = rnd(), b[i] = rnd();
	n[0] |= 1;
	n[num - 1] |= 1ull << 63;
	a[num - 1] >>= 1, b[num - 1] >>= 1;	/* a, b < n */
	u64 n0 = neg_inverse(n[0]);
	if (k->sqr)
		((montk_sqr_fn *)k->sysv)(want, a, n, n0, num);
	else
		((montk_mul_fn *)k->sysv)(want, a, b, n, n0, num);
	for (int way = 0; way < 3; way++) {
		memset(got, 0x5a, sizeof got);
		u64 args[6] = {(u64)(uintptr_t)got, (u64)(uintptr_t)a, (u64)(uintptr_t)b,
		               (u64)(uintptr_t)n, n0, num};
		if (k->sqr)
			args[2] = args[3], args[3] = args[4], args[4] = args[5], args[5] = 0;
		if (way == 0 && k->sqr)
			((ksqr_ms *)k->ms)(got, a, n, n0, num);
		else if (way == 0)
			((kmul_ms *)k->ms)(got, a, b, n, n0, num);
		else	/* 1: SysV, 2: Win64, each with the register check */
			abicheck(k->name, way == 1 ? k->sysv : k->ms, args, way == 2, &fails);
		calls++;
		if (memcmp(got, want, num * sizeof *got)) {
			printf("FAIL %s num=%zu: %s differs from the SysV direct call\n", k->name, num,
			       way == 0 ? "ms_abi direct call" : way == 1 ? "SysV via abicheck"
			                                              : "Win64 via abicheck");
			fails++;
		}
	}
}

int main(void)
{
	struct kernel ks[4] = {
		{"montk_mul_mulq", (const void *)montk_mul_mulq, (const void *)w64_montk_mul_mulq, 0},
		{"montk_sqr_mulq", (const void *)montk_sqr_mulq, (const void *)w64_montk_sqr_mulq, 1},
	};
	int nk = 2;
	const char *adx = "ADX kernels not generated";
#ifdef MONT_HAVE_ADX
	unsigned eax, ebx = 0, ecx, edx;
	if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (ebx >> 19 & 1) && (ebx >> 8 & 1)) {
		ks[nk++] = (struct kernel){"montk_mul_adx", (const void *)montk_mul_adx,
		                           (const void *)w64_montk_mul_adx, 0};
		ks[nk++] = (struct kernel){"montk_sqr_adx", (const void *)montk_sqr_adx,
		                           (const void *)w64_montk_sqr_adx, 1};
		adx = "ADX kernels included";
	} else {
		adx = "ADX kernels generated, not run: this CPU lacks ADX/BMI2";
	}
#endif
	static const size_t nums[] = {4, 5, 7, 8, 16, 31, 32, 64, 127, 128};
	for (int k = 0; k < nk; k++)
		for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
			for (int t = 0; t < 3; t++)
				compare(&ks[k], nums[i]);
	printf("%s: %d kernel calls (ms_abi vs SysV, register checks both ABIs; %s), "
	       "%d failures\n", fails ? "FAIL" : "ok", calls, adx, fails);
	return fails != 0;
}
