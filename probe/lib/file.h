/* SPDX-License-Identifier: MIT */
/* Whole files in and out: one bounded reader and one safe writer for every
 * subcommand (-o, --cache, --templates, audit, spec files). */
#ifndef ASMCAP_FILE_H
#define ASMCAP_FILE_H

#include <stddef.h>
#include <stdint.h>

/* The largest file file_read takes: inputs are catalogs, specs, objects
 * and archives; anything bigger is refused rather than exhausting memory. */
#define FILE_READ_MAX ((size_t)256 << 20)

/* The whole regular file, NUL-terminated (the NUL is not counted in
 * *len); NULL when it cannot be read, is not a regular file (a FIFO,
 * device or directory is refused without blocking) or is larger than
 * FILE_READ_MAX.  file_error() then says why in words.  Free with free(). */
uint8_t *file_read(const char *path, size_t *len);
const char *file_error(void);

/* Create path with text in a private directory (the run's temp dir).
 * 0, or -1 with errno set. */
int file_write(const char *path, const char *text);

/* Write data to path for a user (-o, --cache): NULL or "-" is stdout; a
 * regular file (or a new one) is replaced atomically through a mkstemp
 * file in its directory, and left untouched when it already holds exactly
 * this content; a character device or FIFO is written in place (a FIFO
 * with no reader is an error, never a hang); anything else is refused.
 * 0, or -1 with err. */
int file_replace(const char *path, const char *data, size_t len, char *err, size_t errlen);

struct buf;
/* A subcommand's result (-o FILE, or stdout) through file_replace: 0, or
 * 2 with "WHO: why" on stderr.  Every subcommand fails alike here: 2, as
 * for a usage error (the path was the user's, the toolchain is fine). */
int file_output(const char *who, const char *path, const struct buf *b);

#endif
