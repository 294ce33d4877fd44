/* SPDX-License-Identifier: MIT */
/* The private temp dir every run works in, removed at exit and on every
 * terminating signal, with the process groups still running killed first
 * (the handler is async-signal-safe). */
#ifndef ASMCAP_TMPDIR_H
#define ASMCAP_TMPDIR_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* The private temp dir (created on first call, removed at exit or signal);
 * NULL with a message on stderr when it cannot be made. */
const char *tmpdir_path(void);

/* Text a child printed, with the private dir's path left out: reasons and
 * messages must not change from run to run.  *len is updated. */
void tmpdir_scrub(char *s, size_t *len);

/* For the runner (run.c).  At most TMPDIR_GROUPS children's groups are
 * tracked at once, each recorded with tmpdir_track while the terminating
 * signals are blocked (tmpdir_block), so the handler sees all of it. */
enum { TMPDIR_GROUPS = 64 };
void tmpdir_ready(void);                /* the handlers installed, the child environment made */
char **tmpdir_child_env(void);          /* environ for every child: LC_ALL=C, TMPDIR the private dir */
int tmpdir_sigchld_fd(void);            /* readable when a child has exited */
void tmpdir_block(sigset_t *old);       /* the terminating signals blocked; old the mask before */
void tmpdir_child_signals(void);        /* in a forked child: the default handlers back */
void tmpdir_track(pid_t pg, int add);   /* a group started (add) or reaped */
void tmpdir_kill_strays(void);          /* our children outside any job killed (see tmpdir.c) */

#endif
