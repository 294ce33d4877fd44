/* SPDX-License-Identifier: MIT */
/* The one place asmcap gives up for lack of memory (xalloc.h). */
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *need(void *p)
{
	if (!p) {
		fputs("asmcap: out of memory\n", stderr);
		exit(EXIT_NOMEM);
	}
	return p;
}

/* Zero-sized requests get one byte: malloc(0) may return NULL, which is
 * not a failure. */
void *xmalloc(size_t n)
{
	return need(malloc(n ? n : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return need(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n)
{
	return need(realloc(p, n ? n : 1));
}

char *xstrdup(const char *s)
{
	return xstrndup(s ? s : "", (size_t)-1);
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = 0;
	while (len < n && s[len])
		len++;
	char *d = xmalloc(len + 1);
	memcpy(d, s, len);
	d[len] = 0;
	return d;
}

char *xprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		need(NULL);     /* a message past INT_MAX bytes */
	char *s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}
