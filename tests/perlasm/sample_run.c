/* SPDX-License-Identifier: MIT */
/* Runs tests/perlasm/sample.s as translated to elf (SysV) and to elf-win64
 * (symbols prefixed w64_), directly and through abicheck, against C.
 * Prints one line per check; exit status 1 when any failed. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "abicheck.h"

typedef uint64_t u64;
#define MS __attribute__((ms_abi))

u64 xs_sum6(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f);
u64 xs_mul_1(u64 *r, const u64 *a, u64 n, u64 b);
void xs_xmm(u64 p[4]);
MS u64 w64_xs_sum6(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f);
MS u64 w64_xs_mul_1(u64 *r, const u64 *a, u64 n, u64 b);
MS void w64_xs_xmm(u64 p[4]);

static u64 state = 0x2545f4914f6cdd1du;

static u64 rnd(void)
{
	state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
	return state * 0x2545f4914f6cdd1du;
}

static u64 ref_mul_1(u64 *r, const u64 *a, u64 n, u64 b)
{
	u64 carry = 0;
	for (u64 i = 0; i < n; i++) {
		unsigned __int128 t = (unsigned __int128)a[i] * b + carry;
		r[i] = (u64)t;
		carry = (u64)(t >> 64);
	}
	return carry;
}

static int fails;

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL %s\n", what);
		fails++;
	}
}

/* xs_xmm copies p[0..1] to p[2..3] through xmm6-xmm15, which abicheck
 * finds preserved for a Win64 caller (Xlate saved them). */
static int xmm_checks(void)
{
	int n = 0;
	for (int abi = 0; abi < 2; abi++)
		for (int via = 0; via < 2; via++) {
			u64 p[4] = {rnd(), rnd(), 0, 0};
			const void *fn = abi ? (const void *)w64_xs_xmm : (const void *)xs_xmm;
			u64 args[6] = {(u64)(uintptr_t)p, 0, 0, 0, 0, 0};
			if (via)
				abicheck("xs_xmm", fn, args, abi, &fails);
			else if (abi)
				w64_xs_xmm(p);
			else
				xs_xmm(p);
			check(p[2] == p[0] && p[3] == p[1], abi ? "xs_xmm ms_abi" : "xs_xmm sysv");
			n++;
		}
	return n;
}

int main(void)
{
	int sum_checks = 0, mul_checks = 0, xmm = xmm_checks();
	for (int k = 0; k < 200; k++) {
		u64 v[6];
		for (int i = 0; i < 6; i++)
			v[i] = rnd();
		u64 want = v[0] + 2 * v[1] + 3 * v[2] + 4 * v[3] + 5 * v[4] + 6 * v[5];
		check(xs_sum6(v[0], v[1], v[2], v[3], v[4], v[5]) == want, "xs_sum6 sysv");
		check(w64_xs_sum6(v[0], v[1], v[2], v[3], v[4], v[5]) == want, "xs_sum6 ms_abi");
		check(abicheck("xs_sum6", (const void *)xs_sum6, v, 0, &fails) == want,
		      "xs_sum6 sysv via abicheck");
		check(abicheck("xs_sum6", (const void *)w64_xs_sum6, v, 1, &fails) == want,
		      "xs_sum6 win64 via abicheck");
		sum_checks += 4;
	}
	for (u64 n = 1; n <= 17; n++) {
		u64 a[17], want[17], got[17], b = rnd();
		for (u64 i = 0; i < n; i++)
			a[i] = rnd();
		u64 c = ref_mul_1(want, a, n, b);
		for (int abi = 0; abi < 2; abi++)
			for (int via = 0; via < 2; via++) {
				const void *fn = abi ? (const void *)w64_xs_mul_1 : (const void *)xs_mul_1;
				u64 args[6] = {(u64)(uintptr_t)got, (u64)(uintptr_t)a, n, b, 0, 0}, r;
				memset(got, 0xa5, sizeof got);
				if (via)
					r = abicheck("xs_mul_1", fn, args, abi, &fails);
				else
					r = abi ? w64_xs_mul_1(got, a, n, b) : xs_mul_1(got, a, n, b);
				check(r == c && memcmp(got, want, n * sizeof *got) == 0,
				      abi ? "xs_mul_1 ms_abi" : "xs_mul_1 sysv");
				mul_checks++;
			}
	}
	printf("%s: %d xs_sum6, %d xs_mul_1 and %d xs_xmm calls (sysv, ms_abi, each direct"
	       " and with the register check), %d failures\n", fails ? "FAIL" : "ok", sum_checks,
	       mul_checks, xmm, fails);
	return fails != 0;
}
