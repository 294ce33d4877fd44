/* SPDX-License-Identifier: MIT */
/* audit's walk over one object's code (audit-walk.c): each function, and
 * the code no symbol covers, decoded by the architecture's decoder and
 * counted against the features' patterns.  audit.c reports the rows. */
#ifndef ASMCAP_AUDIT_WALK_H
#define ASMCAP_AUDIT_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "catalog.h"
#include "obj.h"

/* The catalog of one architecture with its patterns compiled. */
struct arch_cat {
	const struct arch *arch;
	int loaded;               /* 1 loaded, -1 failed (the error was reported) */
	struct catalog cat;
	void **pats;              /* parallel to cat.f: the arch's compiled patterns */
};

/* What one function (or the code no symbol covers) contains. */
struct row {
	const char *name;
	int section;
	uint64_t off, size, undecoded;
	unsigned *hits;           /* per feature */
};

/* The rows of one object, nfeat hit counters each. */
struct rows { struct row *r; size_t n, cap; size_t nfeat; };

/* The rows of o's audited code sections (each function, and the gaps
 * between them), appended to rs. */
void audit_code(const struct obj *o, const struct arch_cat *c, struct rows *rs);
/* Audited sections whose bytes overlap in the file (no toolchain writes
 * them; hostile headers could make one stretch be decoded once per
 * section): 1 with two of them in *x < *y, or 0. */
int audit_overlapping_code(const struct obj *o, size_t *x, size_t *y);
void audit_rows_free(struct rows *rs);

#endif
