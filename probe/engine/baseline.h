/* SPDX-License-Identifier: MIT */
/* The baseline guard: what was usable before and is not any more.  Two
 * kinds of document are compared, each reduced to rows of the same shape:
 * a probe's (caps.json: each feature's status, and its flags answer as
 * NAME/flags where it has one; usable when yes) and an
 * audit's (audit --format json: each extension some function or section
 * of the built code uses).  `asmcap diff`, `--baseline` on a probe and
 * `audit --baseline` all print and decide through caps_diff. */
#ifndef ASMCAP_BASELINE_H
#define ASMCAP_BASELINE_H

#include "engine.h"
#include "out.h"

enum caps_kind { CAPS_PROBE, CAPS_AUDIT };

struct cap {
	char *name, *state, *reason;    /* reason may be NULL */
	int good;                       /* usable: yes (probe), found (audit) */
};

struct caps {
	enum caps_kind kind;
	char *arch;                     /* a probe's target; NULL for an audit */
	struct cap *c;
	size_t n;
};

/* A baseline file (either kind, told apart by its members): 0, or -1 with
 * err naming the file and what is wrong with it. */
int caps_load(struct caps *c, const char *path, char *err, size_t errlen);
/* The probe's answers as a document. */
void caps_from_probe(struct caps *c, const struct probe *p);
/* One row appended; a name already there is left as it is. */
void caps_add(struct caps *c, const char *name, const char *state, const char *reason, int good);
void caps_free(struct caps *c);

/* old and now compared in format f (OUT_TEXT: a table, OUT_JSON: an
 * object), appended to b: the number of rows lost, or -1 with err when
 * the two cannot be compared (different kinds or targets).  quiet: nothing
 * is written when nothing changed. */
long caps_diff(struct buf *b, enum out_format f, const struct caps *old, const char *old_name,
               const struct caps *now, const char *now_name, int quiet, char *err, size_t errlen);

#endif
