/* SPDX-License-Identifier: MIT */
/* One assembler run over a set of catalog snippets (asmrun.c), shared by
 * the probe's flow (engine.c). */
#ifndef ASMCAP_UNIT_H
#define ASMCAP_UNIT_H

#include <stddef.h>
#include <stdint.h>

#include "obj.h"
#include "out.h"
#include "engine.h"
#include "run.h"

struct asm_run {
	size_t *f, n;                   /* catalog indices */
	unsigned *first, *last;         /* each snippet's line range in the source */
	char src[64], obj[64];           /* names, in the temp dir */
	char *text;                     /* the source */
	char *srcpath, *objpath;        /* full paths: runs happen in the caller's cwd,
	                                 * where relative -I and command paths mean what they say */
	struct strv argv;
	struct run_job job;
	int verbose;                    /* the run has -v: it shows the driver's programs */
};

struct ctx {
	struct probe *p;
	const struct probe_opts *o;
	struct strv cflags, asflags;
	const char *dir;                /* the temp dir */
	const char *nasm_fmt;
	unsigned seq;                   /* names the files of each run */
	int verbose;                    /* the next --cc run gets -v (until one that ran shows it) */
	int warned;                     /* the flavour mismatch was reported */
	char *as_prog;                  /* the driver's external assembler (from -v) */
	int integrated;                 /* the driver assembles itself (-cc1as) */
	int control_ok, control_failed; /* how the empty control runs went */
	int flaky;                      /* one input gave two different answers: no
	                                 * failure naming no snippet is evidence */
	int bare;                       /* snippets without their `enable:` lines (the
	                                 * "build flags enable it" answer) */
};

enum outcome {
	U_OK,           /* exited 0: every snippet has its verdict from the object */
	U_FAILED,       /* failed, and the messages named snippets: those are `no' */
	U_NOLINES,      /* failed (exit status), naming no snippet */
	U_NOANSWER,     /* killed by a signal, or exited 0 without a readable object */
	U_UNUSABLE,     /* not started, not found, or timed out */
};

void set_verdict(struct verdict *v, enum status st, char *reason, double ms);
char *one_line(const char *s, size_t n);     /* a shortened one-line copy */
char *first_line(const char *s);
char *error_line(const char *text);          /* the first line saying error/fatal */

int want_cpp(const struct ctx *x);           /* --cc in --mode S */
/* Write the source for features f[0..n) and set up the command: 0, or 3. */
int prepare(struct ctx *x, struct asm_run *u, const size_t *f, size_t n, char *err, size_t errlen);
void asm_run_free(struct asm_run *u);
/* After the run: verdicts for its snippets; on U_OK *o and *objbuf hold
 * the object (the caller frees them); U_NOLINES, U_NOANSWER and
 * U_UNUSABLE set err (the command and what went wrong). */
enum outcome asm_run_eval(struct ctx *x, struct asm_run *u, struct obj *o, uint8_t **objbuf,
                       char *err, size_t errlen);
/* How the run ended, before its output is read: U_OK when it exited
 * (whatever its status), else U_NOANSWER or U_UNUSABLE with err set. */
enum outcome run_end(const struct asm_run *u, char *err, size_t errlen);
/* The line of a failed run's output that says what went wrong (malloc'd). */
char *complaint(const struct asm_run *u);
int load_obj(const struct asm_run *u, uint8_t **buf, struct obj *o, char *err, size_t errlen);
/* What the object says: the target's architecture (module or machine
 * name), format, flavour and, in --mode S, the build macros. */
void learn_target(struct ctx *x, const struct obj *o);
void record_failure(struct ctx *x, size_t fi, const struct asm_run *u, const char *msg);

#endif
