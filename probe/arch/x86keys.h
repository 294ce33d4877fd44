/* SPDX-License-Identifier: MIT */
/* The x86 modules' own catalog keys (struct arch.keys): the audit
 * patterns in the SDM's opcode notation, the CPUID bits and XCR0 state the
 * CPU reader checks, and the ways in (nasm, MASM) that have no syntax for
 * a feature. */
#ifndef ASMCAP_X86KEYS_H
#define ASMCAP_X86KEYS_H

#include "catalog.h"

/* A CPUID bit, or (width > 0) a field from `bit` up that must be at least
 * min (an enumerated version: AVX10's in CPUID.(24H,0):EBX[7:0]). */
struct x86_cpuid { unsigned leaf, subleaf, reg /* 0 eax 1 ebx 2 ecx 3 edx */, bit, width, min; };

/* What the keys hold for one feature. */
struct x86_feature {
	char *audit;                    /* "# audit:" the textual pattern list, or NULL */
	struct x86_cpuid cpuid[CAT_MAX_ALT]; size_t ncpuid;   /* all must be set */
	uint64_t xcr0;                  /* OS state the feature needs (0: none) */
};

extern const struct cat_keys x86_keys;
/* What f's keys hold (an empty one for another folder's feature). */
const struct x86_feature *x86_of(const struct feature *f);

#endif
