/* SPDX-License-Identifier: MIT */
/* What an aarch64, arm or riscv64 CPU and kernel can run: the kernel's
 * AT_HWCAP/AT_HWCAP2 words (getauxval) and, on riscv64, the riscv_hwprobe
 * syscall (Linux 6.4+), read against a feature's hwcap:/hwprobe: key. */
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
	int hwprobe;                /* 1 answered; 0 not asked (not riscv64); else -errno
	                             * (-ENOSYS: a kernel, or qemu-user, without it) */
	size_t nkeys;
	int asked[HW_MAX_KEYS];     /* the keys asked for, in order */
	struct { int64_t key; uint64_t value; } keys[HW_MAX_KEYS];   /* the answers; key -1:
	                             * the kernel does not know it */
};

/* Read this host's state, asking hwprobe (riscv64) for every key the
 * features f[0..n) name. */
void hw_read(struct hw_state *s, const struct feature *f, size_t n);

/* 1 runs, 0 does not, -1 cannot tell (why says which bit, or what is missing).
 * hwprobe, when it answered, decides; else the hwcap bit. */
int hw_runs(const struct feature *f, const struct hw_state *s, struct buf *why);

/* arch.cpu_runs and arch.cpu_state of the aarch64, arm and riscv64
 * modules: this host's answer for f; its AT_HWCAP, AT_HWCAP2 (and on
 * riscv64 whether hwprobe answers) for the report. */
int hw_cpu_runs(const struct feature *f, struct buf *why);
size_t hw_cpu_state(struct arch_cpu_state *s);

#endif
