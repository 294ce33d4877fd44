/* A function with knobs for the choose/frame tests:
 *   -DSLOW=1   the same result, computed ~5x slower
 *   -DBIG=1    the same result through a 4 KiB stack buffer
 *   -DWRONG=1  a different result */
#include <stddef.h>
#include <stdint.h>

uint64_t knob_sum(const unsigned char *p, size_t n)
{
	uint64_t s = 0;
#if BIG
	volatile unsigned char copy[4096];
	for (size_t i = 0; i < n && i < sizeof copy; i++)
		copy[i] = p[i];
	for (size_t i = 0; i < n; i++)
		s = s * 31 + (i < sizeof copy ? copy[i] : p[i]);
#else
	for (size_t i = 0; i < n; i++) {
#if SLOW
		/* 16 dependent xors that cancel out: the same result, each a cycle
		 * on the critical path (empty asm statements alone cost nothing,
		 * and left the gap inside a loaded machine's noise) */
		for (uint64_t k = 1; k <= 8; k++) {
			s ^= k;
			__asm__ volatile("" : "+r"(s));
			s ^= k;
			__asm__ volatile("" : "+r"(s));
		}
#endif
		s = s * 31 + p[i];
	}
#endif
#if WRONG
	s ^= 1;
#endif
	return s;
}

static unsigned char data[1024];

uint64_t knob_check(void)
{
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (unsigned char)(i * 7 + 3);
	return knob_sum(data, sizeof data);
}

size_t knob_bench(size_t iters)
{
	uint64_t s = 0;
	for (size_t i = 0; i < iters; i++)
		s += knob_sum(data, sizeof data);
	__asm__ volatile("" : : "r"(s));
	return iters * sizeof data;
}
