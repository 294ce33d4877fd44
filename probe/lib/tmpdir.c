/* SPDX-License-Identifier: MIT */
/* The private temp dir, and the signal handling that removes it (and
 * kills what runs) however asmcap ends. */
#include "tmpdir.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- temp dir and signal cleanup ----
 * A terminating signal must not leave the private dir behind, and its
 * handler may only use async-signal-safe calls: it kills the children's
 * groups, removes the dir with raw directory reads (no malloc, no stdio)
 * and dies of the same signal.  The same removal runs at exit.  Signals
 * are blocked while the dir's name or a child's group is being recorded,
 * so the handler never sees half of either. */

static char tmpdir[4096];
static volatile sig_atomic_t active[TMPDIR_GROUPS];   /* process groups still running */
static int sigchld_pipe[2] = {-1, -1};
static char **child_env;                        /* environ for every child */
static const int term_signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM,
                                   SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM};
static sigset_t term_set;
static unsigned char caught[sizeof term_signals / sizeof *term_signals];   /* handler installed */

_Static_assert(sizeof(pid_t) <= sizeof(sig_atomic_t), "a pid fits the signal-safe table");

static void pause_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};
	nanosleep(&ts, NULL);
}

#ifdef SYS_getdents64
/* The raw directory read: readdir() may allocate, getdents64 does not. */
struct dirent64_raw { uint64_t ino; int64_t off; unsigned short reclen; unsigned char type; char name[]; };

/* Remove name (a directory) under dirfd and everything in it. */
static void rm_tree_at(int dirfd, const char *name, int depth)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		_Alignas(8) char buf[2048];
		long n;
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
			for (long at = 0; at < n;) {
				const struct dirent64_raw *e = (const struct dirent64_raw *)(buf + at);
				at += e->reclen;
				if (!strcmp(e->name, ".") || !strcmp(e->name, ".."))
					continue;
				if (unlinkat(fd, e->name, 0) && (errno == EISDIR || errno == EPERM) && depth < 16)
					rm_tree_at(fd, e->name, depth + 1);
			}
		close(fd);
	}
	unlinkat(dirfd, name, AT_REMOVEDIR);
}
#else
/* Without a raw directory read the handler has only readdir(). */
static void rm_tree_at(int dirfd, const char *name, int depth)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
			    unlinkat(fd, e->d_name, 0) && (errno == EISDIR || errno == EPERM) && depth < 16)
				rm_tree_at(fd, e->d_name, depth + 1);
		closedir(d);
	} else if (fd >= 0)
		close(fd);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}
#endif

/* Our children, listed by the kernel ("PID PID ..."); set up with the
 * subreaper bit, empty where there is no such list. */
static char children_list[64];

/* Strays: asmcap is a child subreaper, so a process that left its job's
 * group (setsid, a daemon's double fork) becomes our child when its parent
 * exits, instead of init's.  Called when no job runs, every child is one:
 * each is killed with its group and reaped, and what it leaves comes back
 * to us in turn, so again, a bounded number of rounds.  Async-signal-safe
 * (raw reads and parsing; the handler and exit use it). */
void tmpdir_kill_strays(void)
{
	for (int round = 0; children_list[0] && round < 200; round++) {
		char buf[4096];
		int fd = open(children_list, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
		if (fd >= 0)
			close(fd);
		int any = 0;
		for (ssize_t i = 0; i < n;) {
			pid_t pid = 0;
			while (i < n && (buf[i] < '0' || buf[i] > '9'))
				i++;
			while (i < n && buf[i] >= '0' && buf[i] <= '9')
				pid = pid * 10 + (buf[i++] - '0');
			if (pid > 0) {
				kill(-pid, SIGKILL);    /* its own group, when it leads one */
				kill(pid, SIGKILL);
				any = 1;
			}
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!any)
			return;
		pause_ms(1);    /* the killed are gone a moment later */
	}
}

/* Kill what runs, wait (bounded) until it is gone, remove the temp dir.
 * Async-signal-safe: the signal handler and exit both use it. */
static void cleanup(void)
{
	int e = errno;
	size_t n = sizeof active / sizeof *active;
	for (size_t i = 0; i < n; i++)
		if (active[i] > 0)
			kill(-(pid_t)active[i], SIGKILL);
	/* A killed driver can no longer write into the dir once reaped; its
	 * group (cc1, as) goes down with it a moment later. */
	for (size_t i = 0; i < n; i++)
		for (int t = 0; active[i] > 0 && t < 2000; t++) {
			pid_t w = waitpid((pid_t)active[i], NULL, WNOHANG);
			if (w != 0 && !(w < 0 && errno == EINTR))
				break;
			pause_ms(1);
		}
	for (size_t i = 0; i < n; i++)
		for (int t = 0; active[i] > 0 && t < 200 && kill(-(pid_t)active[i], 0) == 0; t++)
			pause_ms(1);
	tmpdir_kill_strays();
	for (int pass = 0; tmpdir[0] && pass < 5; pass++) {
		rm_tree_at(AT_FDCWD, tmpdir, 0);
		if (access(tmpdir, F_OK))
			break;
		pause_ms(2);    /* a file created by a dying child: once more */
	}
	tmpdir[0] = 0;
	errno = e;
}

static void on_signal(int sig)
{
	cleanup();
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	raise(sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);     /* the default action: gone */
	_exit(128 + sig);
}

static void on_sigchld(int sig)
{
	int e = errno;
	(void)sig;
	if (write(sigchld_pipe[1], "c", 1) < 0) {
		/* pipe full: a wakeup is already pending */
	}
	errno = e;
}

static void setup_signals(void)
{
	static int done;
	if (done)
		return;
	done = 1;
#ifdef PR_SET_CHILD_SUBREAPER
	if (!prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		snprintf(children_list, sizeof children_list, "/proc/self/task/%ld/children", (long)getpid());
#endif
	if (pipe(sigchld_pipe) == 0) {
		for (int i = 0; i < 2; i++) {
			fcntl(sigchld_pipe[i], F_SETFD, FD_CLOEXEC);
			fcntl(sigchld_pipe[i], F_SETFL, O_NONBLOCK);
		}
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&term_set);
	for (size_t i = 0; i < sizeof term_signals / sizeof *term_signals; i++)
		sigaddset(&term_set, term_signals[i]);
	sa.sa_handler = on_signal;
	sa.sa_mask = term_set;          /* one handler at a time */
	sa.sa_flags = 0;
	for (size_t i = 0; i < sizeof term_signals / sizeof *term_signals; i++) {
		struct sigaction old;
		/* what the caller ignores (nohup, `cmd &') stays ignored */
		if (sigaction(term_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) {
			sigaction(term_signals[i], &sa, NULL);
			caught[i] = 1;
		}
	}
	atexit(cleanup);
}

static const char *make_tmpdir(int quiet)
{
	if (tmpdir[0])
		return tmpdir;
	setup_signals();
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	char t[sizeof tmpdir];
	snprintf(t, sizeof t, "%s/asmcap.XXXXXX", base);
	sigset_t old;
	sigprocmask(SIG_BLOCK, &term_set, &old);        /* made and recorded, or neither */
	char *made = mkdtemp(t);
	int e = errno;
	if (made)
		memcpy(tmpdir, t, sizeof t);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!made) {
		if (!quiet)
			fprintf(stderr, "asmcap: cannot create a temp dir in %s: %s\n", base, strerror(e));
		return NULL;
	}
	return tmpdir;
}

const char *tmpdir_path(void)
{
	return make_tmpdir(0);
}

/* The children's environment: messages in one language (the probe reads
 * them, outputs must not depend on the caller's locale) and TMPDIR in the
 * private dir, so a driver's own temporaries (gcc's ccXXXXXX.s) go with it
 * even when the driver is killed. */
static void make_child_env(void)
{
	extern char **environ;
	static char tmpvar[sizeof tmpdir + 8];
	if (child_env)
		return;
	const char *dir = make_tmpdir(1);
	size_t n = 0, k = 0;
	while (environ && environ[n])
		n++;
	child_env = xrealloc(NULL, (n + 3) * sizeof *child_env);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7) && strncmp(environ[i], "LANGUAGE=", 9) &&
		    !(dir && !strncmp(environ[i], "TMPDIR=", 7)))
			child_env[k++] = environ[i];
	child_env[k++] = "LC_ALL=C";
	if (dir) {
		snprintf(tmpvar, sizeof tmpvar, "TMPDIR=%s", dir);
		child_env[k++] = tmpvar;
	}
	child_env[k] = NULL;
}

void tmpdir_scrub(char *s, size_t *len)
{
	size_t n = strlen(tmpdir);
	if (!n || !*len)
		return;
	char *w = s;
	for (const char *r = s; r < s + *len;) {
		if ((size_t)(s + *len - r) > n && !memcmp(r, tmpdir, n) && r[n] == '/')
			r += n + 1;
		else
			*w++ = *r++;
	}
	*len = w - s;
	*w = 0;
}

void tmpdir_ready(void)
{
	setup_signals();
	make_child_env();
}

char **tmpdir_child_env(void)
{
	return child_env;
}

int tmpdir_sigchld_fd(void)
{
	return sigchld_pipe[0];
}

void tmpdir_block(sigset_t *old)
{
	sigprocmask(SIG_BLOCK, &term_set, old);
}

void tmpdir_child_signals(void)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (size_t i = 0; i < sizeof term_signals / sizeof *term_signals; i++)
		if (caught[i])
			sigaction(term_signals[i], &dfl, NULL);
	sigaction(SIGCHLD, &dfl, NULL);
}

void tmpdir_track(pid_t pg, int add)
{
	for (size_t i = 0; i < sizeof active / sizeof *active; i++)
		if (add ? active[i] == 0 : active[i] == pg) {
			active[i] = add ? pg : 0;
			return;
		}
}
