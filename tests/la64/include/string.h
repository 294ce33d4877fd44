/* SPDX-License-Identifier: MIT */
/* The string functions of rt.c, for code that includes <string.h>
 * (libmont's internal.h) in the freestanding loongarch64 programs. */
#ifndef LA64_STRING_H
#define LA64_STRING_H

#include <stddef.h>

void *memset(void *d, int c, size_t n);
void *memcpy(void *restrict d, const void *restrict s, size_t n);

#endif
