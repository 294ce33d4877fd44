/* What this CPU and OS can run, from a catalog feature's CPUID bits and
 * XCR0 state on x86, its AT_HWCAP/AT_HWCAP2 bit or riscv_hwprobe key
 * elsewhere (the build-time answer is the probe's; this is the run-time one). */
#ifndef ASMCAP_CPU_H
#define ASMCAP_CPU_H

#include "catalog.h"
#include "out.h"

/* 1 runs, 0 does not (why says which bit or state is missing), -1 cannot
 * tell: the feature is another architecture's, or the kernel does not say
 * (no hwprobe).  An x86 directive (no cpuid lines) always runs. */
int cpu_runs(const struct feature *f, struct buf *why);

#endif
