/* SPDX-License-Identifier: MIT */
/* Running toolchain commands (as argv, never through a shell): fork/exec
 * in a new process group with LC_ALL=C and TMPDIR in the private temp dir,
 * a timeout that kills the whole group, stdout/stderr captured with a
 * bound.  The words (argv.h) and the temp dir (tmpdir.h) come with it. */
#ifndef ASMCAP_RUN_H
#define ASMCAP_RUN_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "argv.h"
#include "tmpdir.h"

struct run_result {
	int exited;             /* 1: exited normally, status in `status` */
	int status;
	int signal;             /* terminating signal, 0 if none */
	int timed_out;          /* killed by us after the timeout */
	int not_found;          /* exec failed: ENOENT / EACCES */
	char *out, *err;        /* captured, NUL-terminated (may be empty); past
	                         * 64 KiB the head and the tail, with a line
	                         * saying how much was left out between */
	size_t outlen, errlen;
	unsigned long long outdropped, errdropped;   /* bytes left out */
	double ms;              /* wall time */
};

/* Run argv (argv[0] looked up in PATH), stdin from /dev/null, in `cwd`
 * (NULL: current).  timeout_s <= 0 means the global default (--timeout).
 * Returns 0 when the process ran (whatever its status), -1 if it could not
 * be started at all (err says why). */
int run_cmd(char *const argv[], const char *cwd, double timeout_s,
            struct run_result *r, char *err, size_t errlen);
void run_result_free(struct run_result *r);

/* Several commands at once, at most `maxpar` running at a time (0: all).
 * Fill argv/cwd/timeout_s; the results land in r.  A job that could not be
 * started at all has start_failed set and the reason in start_err. */
struct run_capture { char *head, *tail; size_t nhead, ntail, at; unsigned long long dropped; };
struct run_job {
	char *const *argv;
	const char *cwd;
	double timeout_s;
	struct run_result r;
	int start_failed;
	char start_err[160];
	/* private */
	pid_t pid; int fd[3]; struct run_capture cap[2]; double t0, deadline; int state;
};
void run_jobs(struct run_job *jobs, size_t n, size_t maxpar);

/* One line describing how a run failed: "`gcc -c x.S` killed by SIGSEGV". */
void run_describe(char *const argv[], const struct run_result *r, char *buf, size_t len);
const char *run_signal_name(int sig);   /* "SIGSEGV" */

extern double run_default_timeout;   /* seconds; --timeout sets it */

/* --log: every command, its status and output go here (NULL: nowhere). */
extern FILE *run_log;
extern unsigned run_nprocs;          /* processes started so far */
double run_now_ms(void);

#endif
