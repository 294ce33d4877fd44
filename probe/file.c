/* Whole files in and out. */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, got;
	uint8_t *b = malloc(cap + 1);
	while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *g = realloc(b, 2 * cap + 1);
			if (!g) {
				free(b);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			b = g;
			cap *= 2;
		}
	}
	if (b && ferror(f)) {
		free(b);
		b = NULL;
		errno = EIO;
	}
	fclose(f);
	if (b) {
		b[n] = 0;
		*len = n;
	}
	return b;
}

int file_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int bad = fputs(text, f) == EOF;
	if (fclose(f) == EOF || bad) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
