/* Command runner: shell-style word splitting, fork/exec in a fresh process
 * group, parallel jobs with per-job timeouts, the private temp dir. */
#include "run.h"

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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double run_default_timeout = 20;
FILE *run_log;
unsigned run_nprocs;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("asmcap: out of memory\n", stderr);
		exit(3);
	}
	return p;
}

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
	s->v[s->n++] = word ? strdup(word) : NULL;
	s->v[s->n] = NULL;
}

void strv_append(struct strv *s, const struct strv *more)
{
	for (size_t i = 0; i < more->n; i++)
		strv_push(s, more->v[i]);
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

/* ---- temp dir and signal cleanup ---- */

static char tmpdir[4096];
static pid_t active[64];        /* process groups still running */
static int sigchld_pipe[2] = {-1, -1};

static void rm_tree(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		char sub[4096];
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
			struct stat st;
			if (!lstat(sub, &st) && S_ISDIR(st.st_mode))
				rm_tree(sub);
			else
				unlink(sub);
		}
		closedir(d);
	}
	rmdir(path);
}

static void cleanup(void)
{
	for (size_t i = 0; i < sizeof active / sizeof *active; i++)
		if (active[i] > 0)
			kill(-active[i], SIGKILL);
	if (tmpdir[0])
		rm_tree(tmpdir);
	tmpdir[0] = 0;
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
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
	sa.sa_handler = on_signal;
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(cleanup);
}

const char *tmpdir_path(void)
{
	if (tmpdir[0])
		return tmpdir;
	setup_signals();
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	char t[sizeof tmpdir];
	snprintf(t, sizeof t, "%s/asmcap.XXXXXX", base);
	if (!mkdtemp(t)) {
		fprintf(stderr, "asmcap: cannot create a temp dir in %s: %s\n", base, strerror(errno));
		return NULL;
	}
	memcpy(tmpdir, t, sizeof t);
	return tmpdir;
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
	j->fd[0] = j->fd[1] = j->fd[2] = -1;
	j->cap[0] = j->cap[1] = 0;
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
	pid_t pid = fork();
	if (pid < 0) {
		j->start_failed = 1;
		snprintf(j->start_err, sizeof j->start_err, "fork: %s", strerror(errno));
		close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
		close(px[0]); close(px[1]);
		return;
	}
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
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
	close(po[1]);
	close(pe[1]);
	close(px[1]);
	j->pid = pid;
	j->fd[0] = po[0];
	j->fd[1] = pe[0];
	j->fd[2] = px[0];
	j->r.out = xrealloc(NULL, 1);
	j->r.err = xrealloc(NULL, 1);
	j->r.out[0] = j->r.err[0] = 0;
	j->state = J_RUN;
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
	char **buf = k ? &j->r.err : &j->r.out;
	size_t *len = k ? &j->r.errlen : &j->r.outlen;
	if (*len + 4097 > j->cap[k]) {
		j->cap[k] = 2 * (*len + 4097);
		*buf = xrealloc(*buf, j->cap[k]);
	}
	ssize_t got = read(j->fd[k], *buf + *len, 4096);
	if (got <= 0) {
		if (got < 0 && errno == EINTR)
			return;
		close(j->fd[k]);
		j->fd[k] = -1;
		return;
	}
	*len += got;
	(*buf)[*len] = 0;
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
	/* Stragglers (a daemonised grandchild) must not outlive the run. */
	kill(-j->pid, SIGKILL);
	track(j->pid, 0);
	for (int k = 0; k < 3; k++)
		if (j->fd[k] >= 0) {
			if (k < 2) {
				fcntl(j->fd[k], F_SETFL, O_NONBLOCK);
				while (j->fd[k] >= 0)
					read_fd(j, k);
			} else
				read_fd(j, 2);
		}
	j->r.ms = now_ms() - j->t0;
	j->state = J_DONE;
	log_job(j);
}

void run_jobs(struct run_job *jobs, size_t n, size_t maxpar)
{
	size_t next = 0, running = 0, left = n;
	struct pollfd *pf = xrealloc(NULL, (3 * n + 1) * sizeof *pf);
	setup_signals();
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
	char *cmd = argv_join(argv);
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
