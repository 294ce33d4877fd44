/* SPDX-License-Identifier: MIT */
/* Allocation that cannot fail silently: every x* function returns memory
 * or ends the process with one line on stderr and EXIT_NOMEM.  Out of
 * memory is asmcap's own failure, never the toolchain's (exit 3) nor the
 * user's (exit 2), so it has an exit code of its own. */
#ifndef ASMCAP_XALLOC_H
#define ASMCAP_XALLOC_H

#include <stddef.h>

enum { EXIT_NOMEM = 4 };

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);      /* n * size checked for overflow */
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);               /* NULL is copied as "" */
char *xstrndup(const char *s, size_t n);    /* at most n bytes, NUL-terminated */
char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
