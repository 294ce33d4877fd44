/* SPDX-License-Identifier: MIT */
/* cc-probe's parts: its answers and their state (cc-probe.c: the command,
 * its cache payload and output), the compiles with the rule of retry.h
 * (cc-probe-run.c), the evidence in the object's code (cc-probe-code.c). */
#ifndef ASMCAP_CC_PROBE_H
#define ASMCAP_CC_PROBE_H

#include <stddef.h>

#include "arch.h"
#include "cc.h"
#include "ccat.h"
#include "engine.h"
#include "retry.h"
#include "run.h"

/* One answer: a probe compiled one way. */
struct answer {
	const struct cprobe *p;
	const struct arch *arch;        /* whose catalog it is from */
	int m;                          /* the `mflags:' answer (NAME-m) */
	char *name, *how;
	int want;
	enum status st;
	char *reason;
	double ms;
	struct retry_tries tries;       /* its failures that named nothing (retry.h) */
};

struct cp {
	struct cc_ctx cc;
	struct ccat cats[ARCH_MAX];     /* parallel to arch_all */
	struct answer *a; size_t n;
	const struct arch *target;      /* from the control's object (NULL: no module) */
	char arch[32], format[16];
	struct strv deps;               /* for the cache */
	struct retry trust;             /* how the compiler has behaved (retry.h) */
	int ask_driver, learn;          /* the next control also runs -### / reads the target */
	char **was;                     /* while confirming: each broken answer's first reason */
	unsigned jobs, seq;
};

struct compile {
	struct answer *a;               /* NULL: the control */
	struct strv argv;
	char *src, *obj;
	struct run_job job;
};

/* Set a's verdict (reason: malloc'd, taken). */
void cc_probe_answer_set(struct answer *a, enum status st, char *reason, double ms);
/* The verdict on an object a compile wrote (exit 0): machine code for
 * asmcap_probe holding what the probe's `insn:' and `holds:' ask. */
void cc_probe_verify(struct answer *a, const char *path, double ms);
/* Every wanted answer of the target's catalog, in rounds, then the
 * broken ones confirmed (retry.h).  0, or 3 with err. */
int cc_probe_all(struct cp *c, char *err, size_t errlen);

#endif
