/* Whole files in and out: one reader and one writer for every subcommand. */
#ifndef ASMCAP_FILE_H
#define ASMCAP_FILE_H

#include <stddef.h>
#include <stdint.h>

/* The whole file, NUL-terminated (the NUL is not counted in *len); NULL
 * with errno set when it cannot be read.  Free with free(). */
uint8_t *file_read(const char *path, size_t *len);

/* Create or replace path with text.  0, or -1 with errno set. */
int file_write(const char *path, const char *text);

#endif
