/* SPDX-License-Identifier: MIT */
/* libmont: Montgomery arithmetic on 64-bit little-endian limbs.
 *
 * Numbers are arrays of `num` uint64_t limbs, least significant first.
 * R = 2^(64*num). The modulus n must be odd; inputs must be < n; every
 * result is fully reduced (< n). The result r may alias a or b (mont_mul,
 * mont_sqr) and any input of mont_modexp.
 *
 * The code that runs is chosen once, at first use: the fastest backend the
 * library was built with (see `make`: the asm kernels exist only when the
 * toolchain could assemble them) that this CPU can run. MONT_BACKEND=c|a64|mulq|adx|ifma
 * in the environment asks for one; when it cannot be honoured one line goes
 * to stderr and the best available backend runs. MONT_ASSUME_CPU=adx,bmi2,...
 * (for tests) can only take features away from what CPUID reports. Sizes
 * below the kernels' minimum (their generator states it in mont-kernels.h)
 * use the C code.
 *
 * Thread-safe. Constant time: the secrets are a, b, base and exp, whose
 * values never change the instruction and address trace. Public, and free
 * to change it: num and exp_limbs; the modulus n, its value and its bit
 * length (R mod n is computed by branching on them, and mont_modexp checks
 * that n is odd); whether base < n (the one range check); the backend,
 * from this CPU, MONT_BACKEND and mont_select(). The exponent's length
 * counts in limbs: leading zero bits within exp_limbs cost the same time
 * as any others.
 */
#ifndef MONT_H
#define MONT_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define MONT_API __attribute__((visibility("default")))
#else
#define MONT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Largest num (limbs) every function accepts: 128 limbs = 8192 bits.
 * mont_mul/mont_sqr with a larger num print one line on stderr and abort()
 * (they cannot return an error); mont_modexp returns MONT_ERR_NUM. */
#define MONT_MAX_NUM 128

/* mont_modexp return codes. */
#define MONT_OK          0
#define MONT_ERR_NULL   -1  /* r, base, n, or exp (with exp_limbs > 0) is NULL */
#define MONT_ERR_NUM    -2  /* num == 0 or num > MONT_MAX_NUM */
#define MONT_ERR_EVEN   -3  /* n is even (Montgomery needs an odd modulus) */
#define MONT_ERR_RANGE  -4  /* base >= n */
#define MONT_ERR_COUNT  -5  /* mont_modexp_batch: count > MONT_BATCH_MAX */
#define MONT_ERR_ALIAS  -6  /* mont_modexp_batch: two r[i] are one pointer */

/* The most exponentiations one mont_modexp_batch call takes: one per
 * 64-bit lane of a 512-bit register. */
#define MONT_BATCH_MAX 8

/* -n^-1 mod 2^64, for an odd n_lo (the low limb of n). */
MONT_API uint64_t mont_n0(uint64_t n_lo);

/* r = a*b*R^-1 mod n. n odd, a, b < n, 1 <= num <= MONT_MAX_NUM,
 * n0 = mont_n0(n[0]). r may alias a or b. */
MONT_API void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                       const uint64_t *n, uint64_t n0, size_t num);

/* r = a*a*R^-1 mod n; same conditions as mont_mul. */
MONT_API void mont_sqr(uint64_t *r, const uint64_t *a,
                       const uint64_t *n, uint64_t n0, size_t num);

/* r = base^exp mod n (plain numbers, not Montgomery form), constant time.
 * exp has exp_limbs limbs (any count; exp_limbs == 0 means exponent 0, and
 * exp may then be NULL); base^0 = 1 mod n. r may alias base, exp or n.
 * Uses no heap and at most about 52 KiB of stack (per gcc -fstack-usage:
 * a 36 KiB frame, mostly the 32 KiB table, on the 64-bit backends; 42 KiB
 * on the ifma path, which also keeps its numbers in radix 2^52; plus a
 * 3 KiB kernel frame); the secret temporaries are wiped before return.
 * Returns MONT_OK, or a MONT_ERR_* code with r untouched. The range check
 * base < n is the only branch that depends on base. */
MONT_API int mont_modexp(uint64_t *r, const uint64_t *base, const uint64_t *exp,
                         size_t exp_limbs, const uint64_t *n, size_t num);

/* Two independent exponentiations of the same size at once, as RSA-CRT
 * needs: r1 = b1^e1 mod n1 and r2 = b2^e2 mod n2, each with the
 * conditions, constant-time promise and error codes of mont_modexp (the
 * first set's error first; on any error neither r is touched). The
 * exponents may differ in length. r1 and r2 may alias any input but not
 * each other. The ifma backend interleaves the two so that one's latency
 * hides behind the other's work; the other backends run one after the
 * other. Stack: as mont_modexp plus 2.3 KiB. */
MONT_API int mont_modexp2(uint64_t *r1, const uint64_t *b1, const uint64_t *e1,
                          size_t e1_limbs, const uint64_t *n1,
                          uint64_t *r2, const uint64_t *b2, const uint64_t *e2,
                          size_t e2_limbs, const uint64_t *n2, size_t num);

/* count independent exponentiations of one size at once, for throughput
 * (a server's RSA signatures, Diffie-Hellman with many peers): r[i] =
 * base[i]^exp[i] mod n[i] for i < count <= MONT_BATCH_MAX, each with the
 * conditions and constant-time promise of mont_modexp; every exponent has
 * exp_limbs limbs (a batch runs as long as its longest, so one length is
 * all it can use), and every modulus may differ. Arrays of pointers, not
 * one strided block: the numbers usually live in separate keys and
 * buffers, and the pointers cost nothing to gather. The lane index, count,
 * num, exp_limbs and the moduli are public. Errors are mont_modexp's,
 * checked lane by lane from 0 (the first found is returned and no r[i] is
 * touched), plus MONT_ERR_NULL for a NULL array (with count > 0) and
 * MONT_ERR_COUNT; count 0 returns MONT_OK. r[i] may alias any input of any
 * lane (every result is written after the last read) but not another r[j]
 * (the same pointer twice is MONT_ERR_ALIAS; other overlaps are the
 * caller's error).
 * The ifma backend puts one exponentiation in each 64-bit lane of its
 * 512-bit registers (radix 2^52: no carry crosses a lane, so no product is
 * wasted on a short number), from 256 to 4096 bits and from the count
 * where that wins (mont/dispatch.c); otherwise, and on every other backend,
 * it loops over mont_modexp. Uses no heap and at most about 190 KiB of
 * stack (the 8-lane table of 32 entries of 4096-bit numbers is 160 KiB);
 * the secret temporaries are wiped before return. */
MONT_API int mont_modexp_batch(size_t count, uint64_t *const r[],
                               const uint64_t *const base[],
                               const uint64_t *const exp[], size_t exp_limbs,
                               const uint64_t *const n[], size_t num);

/* Name of the backend for the sizes the kernels take: "ifma", "adx",
 * "mulq" (x86_64), "a64" (AArch64) or "c". With
 * "ifma", mont_modexp and mont_modexp2 run the AVX-512 IFMA kernels (radix
 * 2^52) at the sizes where they are measured faster, and mont_mul/mont_sqr
 * the adx kernels (mulq without ADX). */
MONT_API const char *mont_backend(void);

/* Switch every thread to a backend ("c", "a64", "mulq", "adx", "ifma"). Returns 0 on
 * success, -1 unknown name (or NULL), -2 not built into this library,
 * -3 this CPU cannot run it; the current backend is kept on error. */
MONT_API int mont_select(const char *backend);

#ifdef __cplusplus
}
#endif

#endif
