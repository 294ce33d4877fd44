/* SPDX-License-Identifier: MIT */
/* Command runner: fork/exec in a fresh process group, parallel jobs with
 * per-job timeouts and bounded capture (the words: argv.c; the private
 * temp dir and the signals: tmpdir.c). */
#include "run.h"
#include "tmpdir.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double run_default_timeout = 20;
FILE *run_log;
unsigned run_nprocs;

double run_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- running ---- */

enum { J_WAIT, J_RUN, J_DONE };

static void start_job(struct run_job *j)
{
	int po[2], pe[2], px[2];
	memset(&j->r, 0, sizeof j->r);
	memset(j->cap, 0, sizeof j->cap);
	j->fd[0] = j->fd[1] = j->fd[2] = -1;
	j->state = J_DONE;
	if (pipe(po) || pipe(pe) || pipe(px)) {
		j->start_failed = 1;
		snprintf(j->start_err, sizeof j->start_err, "pipe: %s", strerror(errno));
		return;
	}
	/* our ends stay out of every child (a later job must not hold them) */
	fcntl(px[1], F_SETFD, FD_CLOEXEC);
	fcntl(po[0], F_SETFD, FD_CLOEXEC);
	fcntl(pe[0], F_SETFD, FD_CLOEXEC);
	fcntl(px[0], F_SETFD, FD_CLOEXEC);
	j->t0 = run_now_ms();
	double t = j->timeout_s > 0 ? j->timeout_s : run_default_timeout;
	j->deadline = j->t0 + t * 1e3;
	/* No signal between fork and recording the child's group: the
	 * handler must find every group it has to kill. */
	sigset_t old;
	tmpdir_block(&old);
	pid_t pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		j->start_failed = 1;
		snprintf(j->start_err, sizeof j->start_err, "fork: %s", strerror(errno));
		close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
		close(px[0]); close(px[1]);
		return;
	}
	if (pid == 0) {
		tmpdir_child_signals();
		sigprocmask(SIG_SETMASK, &old, NULL);
		setpgid(0, 0);
		int nul = open("/dev/null", O_RDONLY);
		dup2(nul, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		if (po[1] > 2)
			close(po[1]);
		if (pe[1] > 2)
			close(pe[1]);
		if (nul > 0)
			close(nul);
		int e = 0;
		if (j->cwd && chdir(j->cwd))
			e = errno;
		else {
			extern char **environ;
			environ = tmpdir_child_env();
			execvp(j->argv[0], j->argv);
			e = errno;
		}
		if (write(px[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	run_nprocs++;
	setpgid(pid, pid);
	tmpdir_track(pid, 1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(po[1]);
	close(pe[1]);
	close(px[1]);
	j->pid = pid;
	j->fd[0] = po[0];
	j->fd[1] = pe[0];
	j->fd[2] = px[0];
	j->state = J_RUN;
}

/* Bounded capture: the first and the last CAPTURE_KEEP bytes of a stream;
 * what lies between is counted, not kept, so an endless stream costs no
 * more memory than a short one. */
enum { CAPTURE_KEEP = 64 * 1024 };

static void capture_add(struct run_capture *c, const char *p, size_t n)
{
	if (!c->head)
		c->head = xrealloc(NULL, CAPTURE_KEEP);
	size_t k = n < CAPTURE_KEEP - c->nhead ? n : CAPTURE_KEEP - c->nhead;
	memcpy(c->head + c->nhead, p, k);
	c->nhead += k;
	p += k;
	n -= k;
	if (!n)
		return;
	if (!c->tail)
		c->tail = xrealloc(NULL, CAPTURE_KEEP);
	if (n > CAPTURE_KEEP) {         /* only its last bytes can stay */
		c->dropped += c->ntail + (n - CAPTURE_KEEP);
		p += n - CAPTURE_KEEP;
		n = CAPTURE_KEEP;
		c->ntail = c->at = 0;
	}
	size_t first = n < CAPTURE_KEEP - c->at ? n : CAPTURE_KEEP - c->at;
	memcpy(c->tail + c->at, p, first);
	memcpy(c->tail, p + first, n - first);
	if (c->ntail + n > CAPTURE_KEEP)
		c->dropped += c->ntail + n - CAPTURE_KEEP;
	c->ntail = c->ntail + n > CAPTURE_KEEP ? CAPTURE_KEEP : c->ntail + n;
	c->at = (c->at + n) % CAPTURE_KEEP;
}

/* The kept text, NUL-terminated, a line saying how much was left out
 * between head and tail; the capture is released. */
static char *capture_text(struct run_capture *c, size_t *len, unsigned long long *dropped)
{
	char mark[96];
	int m = c->dropped ? snprintf(mark, sizeof mark, "\n[asmcap: %llu bytes left out here]\n", c->dropped) : 0;
	char *s = xrealloc(NULL, c->nhead + m + c->ntail + 1);
	size_t n = 0, wrapped = c->ntail == CAPTURE_KEEP ? c->at : 0;
	if (c->nhead)
		memcpy(s, c->head, c->nhead);
	n = c->nhead;
	memcpy(s + n, mark, m);
	n += m;
	if (c->ntail) {
		memcpy(s + n, c->tail + wrapped, c->ntail - wrapped);
		memcpy(s + n + c->ntail - wrapped, c->tail, wrapped);
	}
	n += c->ntail;
	s[n] = 0;
	*len = n;
	*dropped = c->dropped;
	free(c->head);
	free(c->tail);
	memset(c, 0, sizeof *c);
	return s;
}

static void read_fd(struct run_job *j, int k)
{
	if (k == 2) {
		int e;
		ssize_t got = read(j->fd[2], &e, sizeof e);
		if (got == sizeof e) {
			j->r.not_found = 1;
			j->start_failed = 1;
			snprintf(j->start_err, sizeof j->start_err, "%s", strerror(e));
		}
		close(j->fd[2]);
		j->fd[2] = -1;
		return;
	}
	static char chunk[16384];
	ssize_t got = read(j->fd[k], chunk, sizeof chunk);
	if (got <= 0) {
		if (got < 0 && errno == EINTR)
			return;
		close(j->fd[k]);
		j->fd[k] = -1;
		return;
	}
	capture_add(&j->cap[k], chunk, got);
}

static void log_job(const struct run_job *j)
{
	if (!run_log)
		return;
	char *cmd = argv_join(j->argv);
	char how[512];
	run_describe(j->argv, &j->r, how, sizeof how);
	fprintf(run_log, "$ %s\n# in %s: %s (%.1f ms)\n", cmd, j->cwd ? j->cwd : ".", how, j->r.ms);
	if (j->r.outlen)
		fprintf(run_log, "# stdout:\n%s%s", j->r.out,
		        j->r.out[j->r.outlen - 1] == '\n' ? "" : "\n");
	if (j->r.errlen)
		fprintf(run_log, "# stderr:\n%s%s", j->r.err,
		        j->r.err[j->r.errlen - 1] == '\n' ? "" : "\n");
	fflush(run_log);
	free(cmd);
}

static void finish_job(struct run_job *j, int status)
{
	if (WIFEXITED(status)) {
		j->r.exited = 1;
		j->r.status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status) && !j->r.timed_out)
		j->r.signal = WTERMSIG(status);
	/* Stragglers in its group go now; one that left the group (setsid, a
	 * daemon) comes back to us as a stray when its parent exits, and
	 * tmpdir_kill_strays ends it once no job runs: none outlives the run. */
	kill(-j->pid, SIGKILL);
	tmpdir_track(j->pid, 0);
	for (int k = 0; k < 3; k++)
		if (j->fd[k] >= 0) {
			if (k < 2) {
				/* what is in the pipe now; a straggler that escaped
				 * the group and keeps it open cannot hold us */
				fcntl(j->fd[k], F_SETFL, O_NONBLOCK);
				for (size_t bound = 0; j->fd[k] >= 0 && bound < 1024; bound++)
					read_fd(j, k);
				if (j->fd[k] >= 0) {
					close(j->fd[k]);
					j->fd[k] = -1;
				}
			} else
				read_fd(j, 2);
		}
	j->r.out = capture_text(&j->cap[0], &j->r.outlen, &j->r.outdropped);
	j->r.err = capture_text(&j->cap[1], &j->r.errlen, &j->r.errdropped);
	tmpdir_scrub(j->r.out, &j->r.outlen);
	tmpdir_scrub(j->r.err, &j->r.errlen);
	j->r.ms = run_now_ms() - j->t0;
	j->state = J_DONE;
	log_job(j);
}

void run_jobs(struct run_job *jobs, size_t n, size_t maxpar)
{
	size_t next = 0, running = 0, left = n;
	struct pollfd *pf = xrealloc(NULL, (3 * n + 1) * sizeof *pf);
	tmpdir_ready();
	if (!maxpar || maxpar > TMPDIR_GROUPS)
		maxpar = TMPDIR_GROUPS;     /* every group stays killable */
	for (size_t i = 0; i < n; i++)
		jobs[i].state = J_WAIT, jobs[i].start_failed = 0;
	while (left) {
		while (running < maxpar && next < n) {
			struct run_job *j = &jobs[next++];
			start_job(j);
			if (j->state == J_RUN)
				running++;
			else
				left--;
		}
		if (!left)
			break;
		/* Reap what has exited (SIGCHLD woke us or may have). */
		char drain[64];
		while (read(tmpdir_sigchld_fd(), drain, sizeof drain) > 0)
			;
		for (size_t i = 0; i < n; i++) {
			struct run_job *j = &jobs[i];
			int st;
			if (j->state == J_RUN && waitpid(j->pid, &st, WNOHANG) == j->pid) {
				finish_job(j, st);
				running--;
				left--;
			}
		}
		if (!left)
			break;
		double now = run_now_ms(), wait = 1e9;
		size_t np = 0;
		pf[np].fd = tmpdir_sigchld_fd();
		pf[np++].events = POLLIN;
		for (size_t i = 0; i < n; i++) {
			struct run_job *j = &jobs[i];
			if (j->state != J_RUN)
				continue;
			if (now >= j->deadline && !j->r.timed_out) {
				j->r.timed_out = 1;
				kill(-j->pid, SIGKILL);
			}
			if (!j->r.timed_out && j->deadline - now < wait)
				wait = j->deadline - now;
			for (int k = 0; k < 3; k++)
				if (j->fd[k] >= 0) {
					pf[np].fd = j->fd[k];
					pf[np++].events = POLLIN;
				}
		}
		if (poll(pf, np, wait > 1e8 ? 1000 : (int)wait + 1) <= 0)
			continue;
		for (size_t p = 1; p < np; p++) {
			if (!pf[p].revents)
				continue;
			for (size_t i = 0; i < n; i++)
				for (int k = 0; k < 3; k++)
					if (jobs[i].state == J_RUN && jobs[i].fd[k] == pf[p].fd)
						read_fd(&jobs[i], k);
		}
	}
	free(pf);
	/* Every job has ended: a child of ours now is a stray.  Not sooner: a
	 * running job may still talk to what its commands started. */
	tmpdir_kill_strays();
}

int run_cmd(char *const argv[], const char *cwd, double timeout_s,
            struct run_result *r, char *err, size_t errlen)
{
	struct run_job j;
	memset(&j, 0, sizeof j);
	j.argv = argv;
	j.cwd = cwd;
	j.timeout_s = timeout_s;
	run_jobs(&j, 1, 1);
	*r = j.r;
	if (j.start_failed) {           /* nothing ran: nothing for the caller to free */
		run_result_free(r);
		char *cmd = argv_join(argv);
		snprintf(err, errlen, "cannot run `%s': %s", cmd, j.start_err);
		free(cmd);
		return -1;
	}
	return 0;
}

void run_result_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

const char *run_signal_name(int sig)
{
	static const struct { int sig; const char *name; } t[] = {
		{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},
		{SIGILL, "SIGILL"}, {SIGFPE, "SIGFPE"}, {SIGKILL, "SIGKILL"},
		{SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"}, {SIGHUP, "SIGHUP"},
		{SIGPIPE, "SIGPIPE"}, {SIGQUIT, "SIGQUIT"}, {SIGTRAP, "SIGTRAP"},
		{SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
	};
	static char other[32];
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (t[i].sig == sig)
			return t[i].name;
	snprintf(other, sizeof other, "signal %d", sig);
	return other;
}

void run_describe(char *const argv[], const struct run_result *r, char *buf, size_t len)
{
	char *cmd = argv_brief(argv);
	if (r->not_found)
		snprintf(buf, len, "`%s' could not be run (%s not found or not executable)", cmd, argv[0]);
	else if (r->timed_out)
		snprintf(buf, len, "`%s' timed out after %g s and was killed", cmd, run_default_timeout);
	else if (r->signal)
		snprintf(buf, len, "`%s' killed by %s", cmd, run_signal_name(r->signal));
	else
		snprintf(buf, len, "`%s' exited with status %d", cmd, r->status);
	free(cmd);
}
