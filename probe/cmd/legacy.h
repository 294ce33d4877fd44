/* SPDX-License-Identifier: MIT */
/* asmcap legacy's parts: the texts OpenSSL's rules read, and the probe's
 * verdicts they are compared with. */
#ifndef ASMCAP_LEGACY_H
#define ASMCAP_LEGACY_H

struct legacy_text {
	const char *as;         /* `$CC -Wa,-v -c -o /dev/null -x assembler /dev/null 2>&1` */
	const char *cc;         /* `$CC -v 2>&1` */
	const char *nasm;       /* `nasm -v 2>&1`, or NULL: not the Win64 nasm flavour */
	const char *ml64;       /* `ml64 2>&1`, or NULL: not the Win64 masm flavour */
};

/* The probe's status of a feature: "yes", "no", ... */
typedef const char *(*legacy_status_fn)(void *ctx, const char *feature);

/* Match the POSIX ERE `re` against the whole text (no REG_NEWLINE: `^` is
 * its start, as in Perl without /m); copy groups 1..n (n <= 7) out, at most
 * 31 characters each, empty when unset.  1 on a match, 0 none, -1 when the
 * pattern does not compile. */
int legacy_match(const char *re, const char *text, char g[][32], int n);

/* The OpenSSL 3.0 gate table and its lost-path lines, on stdout. */
void legacy_gates30(const struct legacy_text *t, legacy_status_fn st, void *ctx);

#endif
