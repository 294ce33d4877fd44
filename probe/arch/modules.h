/* SPDX-License-Identifier: MIT */
/* The architecture modules: each module's name, which is its catalog
 * folder (templates/<name>/) and the suffix of its `struct arch
 * arch_<name>' (probe/arch/<name>.c).  Adding a module adds one line
 * here.  ARCH_MODULES(M, SEP) expands M(name) for each, SEP between
 * two: the externs, arch_all[] and the usage texts' lists all come from
 * this one list. */
#ifndef ASMCAP_MODULES_H
#define ASMCAP_MODULES_H

#define ARCH_MODULES(M, SEP) \
	M(x86_64) \
	SEP M(i386) \
	SEP M(aarch64) \
	SEP M(arm) \
	SEP M(riscv64) \
	SEP M(loongarch64) \
	SEP M(s390x) \
	SEP M(ppc64le) \
	/* one line per module, above */

/* Helpers for ARCH_MODULES' arguments. */
#define ARCH_COMMA ,
#define ARCH_STR(name) #name
#define ARCH_ADDR(name) &arch_##name
#define ARCH_EXTERN(name) extern const struct arch arch_##name;

/* "x86_64|i386|..." for a usage text. */
#define ARCH_NAMES_BAR ARCH_MODULES(ARCH_STR, "|")

#endif
