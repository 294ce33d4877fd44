/* SPDX-License-Identifier: MIT */
/* Calls the Montgomery kernels of build/mont-x86_64.s directly.
 * stdin, one case per line (hex words, limbs little-endian):
 *   KERNEL ALIAS NUM N0 n[0..num-1] a[0..num-1] b[0..num-1]
 * KERNEL: mul_mulq sqr_mulq mul_adx sqr_adx sqr_adx8 (sqr ignores b)
 * ALIAS:  none | ra (r is a) | rb (r is b) | rab (a is b, r is both)
 * stdout: r[0..num-1] per case, or "ERR why". `driver cpu` prints
 * "adx 1" when this CPU runs ADX and BMI2. Canary words around r catch
 * writes outside it. */
#include <cpuid.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mont-kernels.h"

typedef montk_mul_fn mulf;
typedef montk_sqr_fn sqrf;

#define CANARY 0xa5a5a5a55a5a5a5aULL

static int read_words(uint64_t *w, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (scanf("%" SCNx64, &w[i]) != 1)
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "cpu")) {
		unsigned a, b, c, d;
		int adx = __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
		          (b & (1u << 19)) && (b & (1u << 8));
		printf("adx %d\n", adx);
		return 0;
	}
	char kernel[16], alias[8];
	size_t num;
	uint64_t n0;
	while (scanf("%15s %7s %zu %" SCNx64, kernel, alias, &num, &n0) == 4) {
		/* buf: canary, r, canary; separate a, b unless aliased */
		uint64_t buf[MONTK_MAX_NUM + 2], a[MONTK_MAX_NUM], b[MONTK_MAX_NUM], n[MONTK_MAX_NUM];
		if (num < MONTK_MIN_NUM || num > MONTK_MAX_NUM) {
			printf("ERR num %zu\n", num);
			return 1;
		}
		if (read_words(n, num) || read_words(a, num) || read_words(b, num)) {
			printf("ERR short case\n");
			return 1;
		}
		uint64_t *r = buf + 1;
		buf[0] = buf[num + 1] = CANARY;
		memset(r, 0xcc, num * 8);
		const uint64_t *pa = a, *pb = b;
		if (!strcmp(alias, "ra") || !strcmp(alias, "rab")) {
			memcpy(r, a, num * 8);
			pa = r;
		}
		if (!strcmp(alias, "rb") || !strcmp(alias, "rab")) {
			memcpy(r, !strcmp(alias, "rab") ? a : b, num * 8);
			pb = r;
		}
		if (!strcmp(kernel, "mul_mulq"))
			montk_mul_mulq(r, pa, pb, n, n0, num);
		else if (!strcmp(kernel, "sqr_mulq"))
			montk_sqr_mulq(r, pa, n, n0, num);
#ifdef MONT_HAVE_ADX
		else if (!strcmp(kernel, "mul_adx"))
			montk_mul_adx(r, pa, pb, n, n0, num);
		else if (!strcmp(kernel, "sqr_adx"))
			montk_sqr_adx(r, pa, n, n0, num);
		else if (!strcmp(kernel, "sqr_adx8"))
			montk_sqr_adx8(r, pa, n, n0, num);
#endif
		else {
			printf("ERR no kernel %s\n", kernel);
			return 1;
		}
		if (buf[0] != CANARY || buf[num + 1] != CANARY) {
			printf("ERR write outside r\n");
			return 1;
		}
		for (size_t i = 0; i < num; i++)
			printf("%016" PRIx64 "%c", r[i], i + 1 < num ? ' ' : '\n');
	}
	return 0;
}
