/* SPDX-License-Identifier: MIT */
/* The arm module's own catalog keys (struct arch.keys), beside the words
 * dialect's: `isa:' (the body's instruction set), `audit-thumb:' (T32
 * audit words; `audit:' holds the A32 ones) and `attribute:' (the build
 * attribute the object must record: struct feature.attr_tag). */
#ifndef ASMCAP_ARM_H
#define ASMCAP_ARM_H

#include "words.h"

/* What the keys hold for one feature. */
struct arm_feature {
	char *isa;                      /* "thumb" | "arm" | NULL (either) */
	struct cat_word *thumb; size_t nthumb;  /* "# audit-thumb:" */
};

/* What f's keys hold (an empty one for another folder's feature). */
const struct arm_feature *arm_of(const struct feature *f);

#endif
