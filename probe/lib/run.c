/* SPDX-License-Identifier: MIT */
/* Command runner: shell-style word splitting, fork/exec in a fresh process
 * group, parallel jobs with per-job timeouts, the private temp dir. */
#include "run.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double run_default_timeout = 20;
FILE *run_log;
unsigned run_nprocs;

double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void strv_push(struct strv *s, const char *word)
{
	if (s->n + 2 > s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = word ? xstrdup(word) : NULL;
	s->v[s->n] = NULL;
}

void strv_append(struct strv *s, const struct strv *more)
{
	for (size_t i = 0; i < more->n; i++)
		strv_push(s, more->v[i]);
}

int strv_has(const struct strv *s, const char *word)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], word))
			return 1;
	return 0;
}

void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

int split_words(const char *t, struct strv *out, char *err, size_t errlen)
{
	size_t len = strlen(t), n = 0;
	char *w = xrealloc(NULL, len + 1);
	int inword = 0;
	for (const char *p = t; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			if (inword) {
				w[n] = 0;
				strv_push(out, w);
				n = 0;
				inword = 0;
			}
			continue;
		}
		inword = 1;
		if (*p == '\\') {
			if (p[1] == '\n')
				p++;
			else if (p[1])
				w[n++] = *++p;
		} else if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');
			if (!q)
				goto unterminated;
			memcpy(w + n, p + 1, q - p - 1);
			n += q - p - 1;
			p = q;
		} else if (*p == '"') {
			for (p++; *p != '"'; p++) {
				if (!*p)
					goto unterminated;
				if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1]))
					p++;
				w[n++] = *p;
			}
		} else
			w[n++] = *p;
	}
	if (inword) {
		w[n] = 0;
		strv_push(out, w);
	}
	free(w);
	return 0;
unterminated:
	free(w);
	snprintf(err, errlen, "unterminated quote in `%s'", t);
	return -1;
}

char *argv_join(char *const argv[])
{
	size_t cap = 64, n = 0;
	char *s = xrealloc(NULL, cap);
	s[0] = 0;
	for (size_t i = 0; argv[i]; i++) {
		const char *a = argv[i];
		int plain = *a && !a[strcspn(a, " \t\n'\"\\$`*?[]#~=&;|<>(){}")];
		size_t need = n + 4 * strlen(a) + 4;
		if (need > cap)
			s = xrealloc(s, cap = 2 * need);
		if (i)
			s[n++] = ' ';
		if (plain) {
			strcpy(s + n, a);
			n += strlen(a);
		} else {
			s[n++] = '\'';
			for (; *a; a++) {
				if (*a == '\'') {
					memcpy(s + n, "'\\''", 4);
					n += 4;
				} else
					s[n++] = *a;
			}
			s[n++] = '\'';
		}
		s[n] = 0;
	}
	return s;
}

static void scrub(char *s, size_t *len);

char *argv_brief(char *const argv[])
{
	enum { KEEP_HEAD = 240, KEEP_TAIL = 120 };
	char *s = argv_join(argv);
	size_t n = strlen(s);
	scrub(s, &n);
	if (n <= KEEP_HEAD + KEEP_TAIL + 40)
		return s;
	/* cut between UTF-8 characters, never inside one */
	size_t h = KEEP_HEAD, t = n - KEEP_TAIL;
	while (h && ((unsigned char)s[h] & 0xc0) == 0x80)
		h--;
	while (t < n && ((unsigned char)s[t] & 0xc0) == 0x80)
		t++;
	char mid[64];
	int m = snprintf(mid, sizeof mid, " ...[%zu bytes]... ", t - h);
	memmove(s + h + m, s + t, n - t + 1);
	memcpy(s + h, mid, m);
	return s;
}

/* ---- temp dir and signal cleanup ----
 * A terminating signal must not leave the private dir behind, and its
 * handler may only use async-signal-safe calls: it kills the children's
 * groups, removes the dir with raw directory reads (no malloc, no stdio)
 * and dies of the same signal.  The same removal runs at exit.  Signals
 * are blocked while the dir's name or a child's group is being recorded,
 * so the handler never sees half of either. */

static char tmpdir[4096];
static volatile sig_atomic_t active[64];        /* process groups still running */
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
static void kill_strays(void)
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
	kill_strays();
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

/* Text a child printed, with the private dir's path left out: reasons and
 * messages must not change from run to run. */
static void scrub(char *s, size_t *len)
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

/* ---- running ---- */

enum { J_WAIT, J_RUN, J_DONE };

static void track(pid_t pg, int add)
{
	for (size_t i = 0; i < sizeof active / sizeof *active; i++)
		if (add ? active[i] == 0 : active[i] == pg) {
			active[i] = add ? pg : 0;
			return;
		}
}

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
	j->t0 = now_ms();
	double t = j->timeout_s > 0 ? j->timeout_s : run_default_timeout;
	j->deadline = j->t0 + t * 1e3;
	/* No signal between fork and recording the child's group: the
	 * handler must find every group it has to kill. */
	sigset_t old;
	sigprocmask(SIG_BLOCK, &term_set, &old);
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
		struct sigaction dfl;
		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		for (size_t i = 0; i < sizeof term_signals / sizeof *term_signals; i++)
			if (caught[i])
				sigaction(term_signals[i], &dfl, NULL);
		sigaction(SIGCHLD, &dfl, NULL);
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
			environ = child_env;
			execvp(j->argv[0], j->argv);
			e = errno;
		}
		if (write(px[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	run_nprocs++;
	setpgid(pid, pid);
	track(pid, 1);
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
	 * kill_strays ends it once no job runs: none outlives the run. */
	kill(-j->pid, SIGKILL);
	track(j->pid, 0);
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
	scrub(j->r.out, &j->r.outlen);
	scrub(j->r.err, &j->r.errlen);
	j->r.ms = now_ms() - j->t0;
	j->state = J_DONE;
	log_job(j);
}

void run_jobs(struct run_job *jobs, size_t n, size_t maxpar)
{
	size_t next = 0, running = 0, left = n;
	struct pollfd *pf = xrealloc(NULL, (3 * n + 1) * sizeof *pf);
	setup_signals();
	make_child_env();
	if (!maxpar || maxpar > sizeof active / sizeof *active)
		maxpar = sizeof active / sizeof *active;     /* every group stays killable */
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
		while (read(sigchld_pipe[0], drain, sizeof drain) > 0)
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
		double now = now_ms(), wait = 1e9;
		size_t np = 0;
		pf[np].fd = sigchld_pipe[0];
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
	kill_strays();
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

const char *signal_name(int sig)
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
		snprintf(buf, len, "`%s' killed by %s", cmd, signal_name(r->signal));
	else
		snprintf(buf, len, "`%s' exited with status %d", cmd, r->status);
	free(cmd);
}
