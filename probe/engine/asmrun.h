/* SPDX-License-Identifier: MIT */
/* The assembler probe's parts, shared by its files: one assembler run over
 * a set of catalog snippets (asmrun.c) and its evidence (evidence.c), the
 * plan (plan.c), the runs and their retries (runs.c), what the driver says
 * (driver.c), the whole flow (engine.c). */
#ifndef ASMCAP_ASMRUN_H
#define ASMCAP_ASMRUN_H

#include <stddef.h>
#include <stdint.h>

#include "obj.h"
#include "out.h"
#include "engine.h"
#include "retry.h"
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
	struct retry trust;             /* how the toolchain has behaved (retry.h) */
	int bare;                       /* snippets without their `enable:` lines (the
	                                 * "build flags enable it" answer) */
};

enum outcome {
	OUTCOME_OK,           /* exited 0: every snippet has its verdict from the object */
	OUTCOME_FAILED,       /* failed, and the messages named snippets: those are `no' */
	OUTCOME_NOLINES,      /* failed (exit status), naming no snippet */
	OUTCOME_NOANSWER,     /* killed by a signal, or exited 0 without a readable object */
	OUTCOME_UNUSABLE,     /* not started, not found, or timed out */
};

void verdict_set(struct verdict *v, enum status st, char *reason, double ms);
char *asmrun_first_line(const char *s);
char *asmrun_error_line(const char *text);          /* the first line saying error/fatal */

int asmrun_want_cpp(const struct ctx *x);           /* --cc in --mode S */
/* Write the source for features f[0..n) and set up the command: 0, or 3. */
int asmrun_prepare(struct ctx *x, struct asm_run *u, const size_t *f, size_t n, char *err, size_t errlen);
void asm_run_free(struct asm_run *u);
/* After the run: verdicts for its snippets; on OUTCOME_OK *o and *objbuf hold
 * the object (the caller frees them); OUTCOME_NOLINES, OUTCOME_NOANSWER and
 * OUTCOME_UNUSABLE set err (the command and what went wrong). */
enum outcome asm_run_eval(struct ctx *x, struct asm_run *u, struct obj *o, uint8_t **objbuf,
                       char *err, size_t errlen);
/* How the run ended, before its output is read: OUTCOME_OK when it exited
 * (whatever its status), else OUTCOME_NOANSWER or OUTCOME_UNUSABLE with err set. */
enum outcome asmrun_end(const struct asm_run *u, char *err, size_t errlen);
/* The line of a failed run's output that says what went wrong (malloc'd). */
char *asmrun_complaint(const struct asm_run *u);
int asmrun_load_obj(const struct asm_run *u, uint8_t **buf, struct obj *o, char *err, size_t errlen);
/* What the object says: the target's architecture (module or machine
 * name), format, flavour and, in --mode S, the build macros. */
void asmrun_learn_target(struct ctx *x, const struct obj *o);

/* evidence.c */
/* The verdict of snippet fi from the run u's object o (NULL: none), with
 * the assembler's warning for its lines and the run's general message. */
void evidence_decide(struct ctx *x, size_t fi, const struct obj *o, const char *warn, const char *general,
                const struct asm_run *u, struct verdict *v);
/* Feature fi rejected: `no' with msg and the run kept for explain. */
void evidence_record_failure(struct ctx *x, size_t fi, const struct asm_run *u, const char *msg);

/* plan.c */
/* verdict_clear frees what v holds and zeroes it; verdicts_free both arrays. */
void verdict_clear(struct verdict *v);
void verdicts_free(struct probe *p);
/* Which features run (run[0..*nrun)), given the object format; the others
 * get their verdict now.  0, or 2 with err. */
int plan_runs(struct ctx *x, enum obj_format fmt, size_t *run, size_t *nrun, char *err, size_t errlen);
/* Move the features of run[0..*n) that cannot share a run into alone[];
 * their count. */
size_t plan_alone(struct ctx *x, size_t *run, size_t *n, size_t *alone);
enum obj_format plan_format_guess(const struct ctx *x);
enum obj_format plan_format_of(const char *name);

/* driver.c */
/* `-dM -E` output into b (every module's macros count). */
void driver_parse_defines(struct build_info *b, const char *text);
/* From a run's `-v' output: p's identity, deps and assembler line,
 * *integrated (-cc1as); the external assembler's program (malloc'd) or NULL. */
char *driver_parse(struct probe *p, const char *text, int *integrated);

/* runs.c */
/* The run ended so that its verdicts come from it (OK, or FAILED by line). */
int probe_attributed(enum outcome out);
/* The empty-file control (retry_control).  0, or 3 with err. */
int probe_control(struct ctx *x, char *err, size_t errlen);
/* One run per feature of f[0..n), in retry_rounds.  0, or 3 with err. */
int probe_singly(struct ctx *x, const size_t *f, size_t n, char *err, size_t errlen);
/* Every `broken' verdict of p->v confirmed (retry_confirm_broken).  0, or 3. */
int probe_confirm_broken(struct ctx *x, char *err, size_t errlen);
/* Keep the features of run[0..n) no run rejected / none decided yet; the new count. */
size_t probe_drop_rejected(const struct probe *p, size_t *run, size_t n);
size_t probe_undecided(const struct probe *p, size_t *run, size_t n);
/* run[0..n) in one run, again without what it rejects by line (a few times
 * at most); first: also the identity queries.  *left the features the last
 * run had; *out how it went, *first_out (unless NULL) how the first went.
 * 0, or 3 with err. */
int probe_batch(struct ctx *x, size_t *run, size_t n, size_t *left, enum outcome *first_out,
                enum outcome *out, int first, char *err, size_t errlen);

#endif
