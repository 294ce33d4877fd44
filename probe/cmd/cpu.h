/* What this CPU and OS can run, asked of the host architecture's CPU
 * reader (arch.h): CPUID bits and XCR0 state on x86, AT_HWCAP/AT_HWCAP2
 * and hwprobe elsewhere (the build-time answer is the probe's; this is
 * the run-time one). */
#ifndef ASMCAP_CPU_H
#define ASMCAP_CPU_H

#include "catalog.h"
#include "out.h"

/* 1 runs, 0 does not (why says which bit or state is missing), -1 cannot
 * tell: the feature is another architecture's, or the kernel does not say
 * (no hwprobe).  An x86 directive (no cpuid lines) always runs. */
int cpu_runs(const struct feature *f, struct buf *why);

/* Does the catalog say where the CPU shows f (cpuid:, hwcap:, hwprobe:)?
 * Directives have nothing for the CPU to check. */
int cpu_checks(const struct feature *f);

#endif
