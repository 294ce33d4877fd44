/* SPDX-License-Identifier: MIT */
/* asmcap choose's spec (the format: choose.c) and the variants it names,
 * with what building, checking and timing each finds. */
#ifndef ASMCAP_CHOOSE_SPEC_H
#define ASMCAP_CHOOSE_SPEC_H

#include <stddef.h>

#include "stackframe.h"

#define MAXV 16

struct variant {
	char name[64];
	char *flags;
	struct frame_result fr;
	char exe[4200];
	int checked;            /* digest holds the check's result */
	int native;             /* this machine runs its code: it may be timed */
	char why[512];          /* why it was not checked or cannot be timed */
	unsigned long long digest;
	double *cpb;            /* cycles/byte per round */
	double med, min, max;
};

struct spec {
	char *dir, *name, *source, *function, *check, *bench, *metric, *def;
	struct variant v[MAXV];
	size_t nv;
};

/* The spec in file read into sp (zeroed first by the caller): 0, or -1
 * with the message (the file and line) on stderr. */
int choose_spec_load(struct spec *sp, const char *file);
void choose_spec_free(struct spec *sp);

#endif
