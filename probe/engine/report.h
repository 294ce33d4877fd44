/* SPDX-License-Identifier: MIT */
/* Probe results written out: caps.json, build variables, the text table. */
#ifndef ASMCAP_REPORT_H
#define ASMCAP_REPORT_H

#include "out.h"
#include "engine.h"

const char *report_version(void);
/* Status yes and every `requires` usable, transitively; else 0 and
 * *missing names a feature down the requires chain that is not yes (NULL
 * if the feature itself is not). */
int report_feature_usable(const struct probe *p, size_t i, const char **missing);
void report_json(struct buf *b, const struct probe *p);
void report_vars(struct buf *b, enum out_format f, const struct probe *p, const char *who);
void report_text(struct buf *b, const struct probe *p, int colour);
/* What would make feature i (not yes) yes: one sentence, "Fix: ...",
 * for the advice and for --require. */
void report_fix(struct buf *b, const struct probe *p, size_t i);
/* The advice lines report_text ends with. */
void report_advice(struct buf *b, const struct probe *p);

#endif
