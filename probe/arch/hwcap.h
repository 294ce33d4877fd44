/* SPDX-License-Identifier: MIT */
/* What the CPU and kernel of a fixed-width machine can run: the kernel's
 * AT_HWCAP/AT_HWCAP2 words (getauxval) and, where its module has one, a
 * key/value reader (riscv64's riscv_hwprobe syscall), read against a
 * feature's hwcap:/hwprobe: key. */
#ifndef ASMCAP_HWCAP_H
#define ASMCAP_HWCAP_H

#include <stdint.h>

#include "arch.h"
#include "catalog.h"
#include "out.h"

#define HW_MAX_KEYS 8

struct hw_state {
	int auxv;                   /* 1: AT_HWCAP/AT_HWCAP2 were read (Linux) */
	uint64_t hwcap, hwcap2;
	int hwprobe;                /* 1 answered; 0 not asked (no feature names a key);
	                             * else -errno (-ENOSYS: a kernel, or qemu-user,
	                             * without it, or a machine without a reader) */
	size_t nkeys;
	int asked[HW_MAX_KEYS];     /* the keys asked for, in order */
	struct { int64_t key; uint64_t value; } keys[HW_MAX_KEYS];   /* the answers; key -1:
	                             * the kernel does not know it */
};

/* A module's key/value reader: fill s->keys[0..s->nkeys); 0, or -errno. */
typedef int hw_ask(struct hw_state *s);

/* Read this host's state, asking `ask' (NULL: the machine has none) for
 * every key the features f[0..n) name. */
void hwcap_read(struct hw_state *s, const struct feature *f, size_t n, hw_ask *ask);

/* 1 runs, 0 does not, -1 cannot tell (why says which bit, or what is missing).
 * hwprobe, when it answered, decides; else the hwcap bit. */
int hwcap_runs(const struct feature *f, const struct hw_state *s, struct buf *why);

/* arch.cpu_runs and arch.cpu_state of a module without a key/value reader:
 * this host's answer for f; its AT_HWCAP and AT_HWCAP2 for the report. */
int hwcap_cpu_runs(const struct feature *f, struct buf *why);
size_t hwcap_cpu_state(struct arch_cpu_state *s);

#endif
