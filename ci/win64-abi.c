/* ci/matrix's Win64-ABI run: the elf-win64 flavour is the kernels' Windows
 * code (arguments in rcx, rdx, r8, r9 and on the stack; rdi, rsi and
 * xmm6-15 preserved) in an ELF object.  ci/matrix renames its symbols to
 * w64_*; these System V entry points call them with the Windows calling
 * convention, so libmont and its tests reach the Win64 code unchanged. */
#include <stddef.h>
#include <stdint.h>

#include "mont-kernels.h"

#define KERNELS(k)                                                              \
	__attribute__((ms_abi)) void w64_montk_mul_##k(uint64_t *, const uint64_t *, \
		const uint64_t *, const uint64_t *, uint64_t, size_t);          \
	__attribute__((ms_abi)) void w64_montk_sqr_##k(uint64_t *, const uint64_t *, \
		const uint64_t *, uint64_t, size_t);                            \
	void montk_mul_##k(uint64_t *r, const uint64_t *a, const uint64_t *b,  \
		const uint64_t *n, uint64_t n0, size_t num)                     \
	{ w64_montk_mul_##k(r, a, b, n, n0, num); }                             \
	void montk_sqr_##k(uint64_t *r, const uint64_t *a, const uint64_t *n,  \
		uint64_t n0, size_t num)                                        \
	{ w64_montk_sqr_##k(r, a, n, n0, num); }

KERNELS(mulq)
#ifdef MONT_HAVE_ADX
KERNELS(adx)
#endif
