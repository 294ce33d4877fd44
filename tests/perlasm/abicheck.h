/* SPDX-License-Identifier: MIT */
/* Calling assembly through either ABI with a check of what it preserved
 * (abicheck.S). */
#ifndef ABICHECK_H
#define ABICHECK_H
#include <stdint.h>

void abicheck_call(const void *fn, const uint64_t args[6], uint64_t regs[29], int win64);

/* Calls fn(args) under the ABI and returns rax; prints and counts in *fails
 * every callee-saved register (rbx rbp r12-r15, plus rdi rsi and xmm6-xmm15
 * for Win64) that came back changed. */
uint64_t abicheck(const char *what, const void *fn, const uint64_t args[6], int win64,
                  int *fails);
#endif
