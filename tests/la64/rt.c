/* SPDX-License-Identifier: MIT */
/* The Linux loongarch64 system call ABI: number in $a7, arguments in
 * $a0-$a5, result in $a0; the kernel may clobber $t0-$t8.  Numbers from
 * the generic table (include/uapi/asm-generic/unistd.h). */
#include "rt.h"

#include <string.h>

static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long a0 __asm__("$a0") = a, a1 __asm__("$a1") = b, a2 __asm__("$a2") = c;
	register long a3 __asm__("$a3") = d, a4 __asm__("$a4") = e, a5 __asm__("$a5") = f;
	register long a7 __asm__("$a7") = nr;
	__asm__ volatile("syscall 0" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5), "r"(a7)
	                 : "memory", "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7", "$t8");
	return a0;
}

_Noreturn void la64_exit(long code)
{
	for (;;)
		sys6(93, code, 0, 0, 0, 0, 0);          /* exit */
}

void la64_write(const void *p, size_t n)
{
	sys6(64, 1, (long)p, (long)n, 0, 0, 0);         /* write(1, ...) */
}

void *la64_mmap_rwx(size_t n)
{
	/* mmap(NULL, n, PROT_READ|WRITE|EXEC, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) */
	long p = sys6(222, 0, (long)n, 7, 0x22, -1, 0);
	return (unsigned long)p > -4096UL ? NULL : (void *)p;
}

uint64_t la64_hex(const char *s)
{
	uint64_t v = 0;
	for (;; s++) {
		unsigned d = *s >= '0' && *s <= '9' ? (unsigned)(*s - '0')
		             : (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f' ? (unsigned)((*s | 0x20) - 'a' + 10) : 16;
		if (d == 16)
			return v;
		v = v << 4 | d;
	}
}

void la64_put_hex(uint64_t v)
{
	char b[20], *p = b + sizeof b;
	*--p = '\n';
	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	la64_write(p, (size_t)(b + sizeof b - p));
}

/* The compiler emits calls to these for struct copies and zeroing. */
void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;
	while (n--)
		*p++ = *q++;
	return d;
}

void la64_start(long *sp);
void la64_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1), **envp = argv + argc + 1, **e = envp;
	while (*e)
		e++;
	la64_exit(la64_main(argc, argv, envp, (const uint64_t *)(e + 1)));
}

/* the kernel's initial stack pointer is the argument */
__asm__(".text\n.globl _start\n.type _start, @function\n_start:\n\tmove $a0, $sp\n\tbl la64_start\n");
