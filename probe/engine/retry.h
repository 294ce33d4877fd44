/* SPDX-License-Identifier: MIT */
/* The one rule for a toolchain that fails now and then, shared by every
 * kind of probe (the assembler's snippets, cc-probe's C files): a failure
 * that names nothing (a launcher whose host is down) is run again around
 * passing controls, and a verdict is taken from it only when it reproduces
 * alike on a toolchain that never answered one input two ways; a `broken'
 * answer needs the same evidence.  Anything less is exit 3, nothing
 * cached.  The kind says how to run its inputs (struct retry_kind). */
#ifndef ASMCAP_RETRY_H
#define ASMCAP_RETRY_H

#include <stddef.h>

/* Runs of one input before a failure that names nothing is final. */
enum { PROBE_TRIES = 3 };

/* What the toolchain has shown so far, across every call of one probe. */
struct retry {
	int control_ok, control_failed; /* how the controls went */
	int flaky;                      /* one input gave two different answers */
};

/* One input's failures that named nothing. */
struct retry_tries {
	unsigned fails;
	int odd;                /* one was not a plain failure (a signal, no object): never a `no' */
	char *said;             /* the last one's asmrun_complaint, in words that repeat alike */
	char *why;              /* the last one's message, for exit 3 */
};

/* What one kind of probe does; i is the kind's own index of an input. */
struct retry_kind {
	void *ctx;
	/* One control run: 0 passed; 3 with err, *fatal when another run cannot help. */
	int (*control_once)(void *ctx, int *fatal, char *err, size_t errlen);
	/* Run todo[0..n) (--jobs at a time) and judge them; the failures that
	 * named nothing (recorded with retry_failed, their verdict set to what
	 * they would settle as) are left in todo[0..*left).  0, or 3 with err. */
	int (*round)(void *ctx, size_t *todo, size_t n, size_t *left, char *err, size_t errlen);
	struct retry_tries *(*tries)(void *ctx, size_t i);
	/* Input i alone, once more: 0 and *same when its answer is the broken
	 * one seen before, with the same evidence; or 3 with err. */
	int (*again)(void *ctx, size_t i, int *same, char *err, size_t errlen);
	/* "NAME was broken (REASON)", and when changed ", then STATUS: REASON". */
	void (*was_broken)(void *ctx, size_t i, int changed, char *out, size_t len);
};

/* The control, up to PROBE_TRIES runs until one passes.  A control that
 * passed once and fails later (or the other way round) shows an
 * intermittent toolchain.  0, or 3 with err. */
int retry_control(struct retry *t, const struct retry_kind *k, char *err, size_t errlen);

/* Input a was decided (its messages named it, or it passed). */
void retry_decided(struct retry *t, const struct retry_tries *a);
/* Input a failed naming nothing: said (the words), odd, why (as above). */
void retry_failed(struct retry *t, struct retry_tries *a, const char *said, int odd, const char *why);
void retry_tries_free(struct retry_tries *a);

/* Rounds over todo[0..n) (changed), a control before each but the first,
 * PROBE_TRIES in all: what fails naming nothing every time alike, on a
 * toolchain that never answered two ways, keeps the verdict the round
 * set; anything else is 3 with err. */
int retry_rounds(struct retry *t, const struct retry_kind *k, size_t *todo, size_t n, char *err, size_t errlen);

/* A `broken' answer needs the evidence a rejection does: each later round
 * (a passing control first) runs every one of todo[0..n) alone twice, one
 * run after the other, never two at once (parallel reruns under load met
 * a wrapper's damage on both), and each must give the same answer.  Else,
 * or when the toolchain is flaky, 3 with err. */
int retry_confirm_broken(struct retry *t, const struct retry_kind *k, const size_t *todo, size_t n,
                         char *err, size_t errlen);

#endif
