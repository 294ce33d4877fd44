/* SPDX-License-Identifier: MIT */
/* The GNU property note of an ELF object (.note.gnu.property): the
 * protections the link keeps only when every object is marked for them
 * (x86 IBT/SHSTK, AArch64 BTI/PAC/GCS: the linker ANDs the words). */
#ifndef ASMCAP_GNUPROP_H
#define ASMCAP_GNUPROP_H

#include <stdint.h>

#include "obj.h"

/* The 32-bit word of property pr_type (the architecture's
 * GNU_PROPERTY_*_FEATURE_1_AND) in o's note: 1 and *bits, or 0 when o has
 * no such property (not ELF, no note, or a note that does not parse). */
int obj_gnu_property_word(const struct obj *o, uint32_t pr_type, uint32_t *bits);

#endif
