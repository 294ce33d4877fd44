/* SPDX-License-Identifier: MIT */
/* The build attributes of an Arm ELF object (.ARM.attributes, "Addenda to,
 * and Errata in, the ABI for the Arm Architecture": Build Attributes): what
 * the assembler recorded about the architecture it assembled for, which a
 * directive such as `.object_arch armv4' changes without changing a byte of
 * code.  The arm module's `attribute:' evidence (struct
 * arch.evidence_attribute) reads it; the fuzzers and tests/objects build it
 * with the object readers alone. */
#ifndef ASMCAP_ARMATTR_H
#define ASMCAP_ARMATTR_H

#include <stddef.h>
#include <stdint.h>

#include "obj.h"

/* The value of the ULEB128-valued attribute `tag' in the "aeabi" File
 * attributes of o: 1 and *value; 0 when o records none (not ELF, no
 * .ARM.attributes, no such tag); -1 with err (a one-line reason) when the
 * section does not parse. */
int arm_attribute(const struct obj *o, unsigned tag, uint64_t *value, char *err, size_t errlen);

#endif
