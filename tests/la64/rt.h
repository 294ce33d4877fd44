/* SPDX-License-Identifier: MIT */
/* A freestanding runtime for the loongarch64 test programs qemu-user runs:
 * Debian 12 has no libc for loongarch64, so _start, the few system calls
 * and the string functions the compiler and libmont call are here. */
#ifndef LA64_RT_H
#define LA64_RT_H

#include <stddef.h>
#include <stdint.h>

/* What the program defines: called by _start with the kernel's initial
 * stack read (auxv: the {type, value} pairs up to AT_NULL); its return
 * value is the exit status. */
int la64_main(int argc, char **argv, char **envp, const uint64_t *auxv);

_Noreturn void la64_exit(long code);
void la64_write(const void *p, size_t n);
/* n bytes readable, writable and executable, or NULL */
void *la64_mmap_rwx(size_t n);
/* s as a hex number (no prefix; stops at the first non-hex character) */
uint64_t la64_hex(const char *s);
/* v in hex and a newline on stdout */
void la64_put_hex(uint64_t v);

#endif
