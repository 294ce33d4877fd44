/* SPDX-License-Identifier: MIT */
/* Whole files in and out. */
#include "file.h"
#include "out.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char last_error[160];

const char *file_error(void)
{
	return last_error;
}

static const char *kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static void *failed(int fd, void *b, int e, const char *fmt, const char *what)
{
	if (fd >= 0)
		close(fd);
	free(b);
	snprintf(last_error, sizeof last_error, fmt, what);
	errno = e;
	return NULL;
}

uint8_t *file_read(const char *path, size_t *len)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return failed(-1, NULL, errno, "%s", strerror(errno));
	if (fstat(fd, &st))
		return failed(fd, NULL, errno, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return failed(fd, NULL, EINVAL, "%s, not a regular file", kind(st.st_mode));
	if ((uint64_t)st.st_size > FILE_READ_MAX)
		return failed(fd, NULL, EFBIG, "larger than the %s limit", "256 MiB");
	/* st_size is a hint only (/proc files say 0, a file may grow): the
	 * limit holds on what is actually read. */
	size_t cap = st.st_size > 0 && (uint64_t)st.st_size <= FILE_READ_MAX ? (size_t)st.st_size + 1 : 1 << 16;
	size_t n = 0;
	uint8_t *b = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap > FILE_READ_MAX)
				return failed(fd, b, EFBIG, "larger than the %s limit", "256 MiB");
			size_t ncap = cap * 2 > FILE_READ_MAX + 1 ? FILE_READ_MAX + 1 : cap * 2;
			b = xrealloc(b, ncap + 1);
			cap = ncap;
		}
		ssize_t got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return failed(fd, b, errno, "%s", strerror(errno));
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n > FILE_READ_MAX)
		return failed(fd, b, EFBIG, "larger than the %s limit", "256 MiB");
	close(fd);
	b[n] = 0;
	*len = n;
	return b;
}

int file_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int bad = fputs(text, f) == EOF;
	if (fclose(f) == EOF || bad) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;
			return -1;
		}
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

static int fail(char *err, size_t errlen, const char *what, const char *path)
{
	snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
	return -1;
}

/* Whether the regular file at path already holds exactly data. */
static int same_content(const char *path, const char *data, size_t len)
{
	size_t n;
	uint8_t *old = file_read(path, &n);
	int same = old && n == len && !memcmp(old, data, len);
	free(old);
	return same;
}

/* A device or FIFO: written where it is, never replaced. */
static int write_in_place(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ENXIO) {
		snprintf(err, errlen, "cannot write %s: a FIFO with no reader", path);
		return -1;
	}
	if (fd < 0)
		return fail(err, errlen, "cannot write", path);
	struct stat st;
	if (fstat(fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		close(fd);      /* replaced between stat and open: refuse */
		snprintf(err, errlen, "cannot write %s: it changed while being opened", path);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	int r = write_all(fd, data, len);
	if (r)
		fail(err, errlen, "writing", path);
	if (close(fd) && !r)
		r = fail(err, errlen, "writing", path);
	return r;
}

int file_replace(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
	struct stat st, out;
	if (!path || !strcmp(path, "-") ||
	    (!stat(path, &st) && !fstat(1, &out) && st.st_dev == out.st_dev && st.st_ino == out.st_ino)) {
		/* stdout, also by name (-o /dev/stdout, whatever it is) */
		if (fwrite(data, 1, len, stdout) != len || fflush(stdout)) {
			snprintf(err, errlen, "cannot write standard output: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	int exists = !stat(path, &st);
	if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		return write_in_place(path, data, len, err, errlen);
	if (exists && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot write %s: %s (only regular files are replaced)", path, kind(st.st_mode));
		return -1;
	}
	if (exists && same_content(path, data, len))
		return 0;
	/* A symlink to a regular file: replace the file it points to, keep the link. */
	char real[PATH_MAX];
	const char *target = path;
	struct stat lst;
	if (exists && !lstat(path, &lst) && S_ISLNK(lst.st_mode)) {
		if (!realpath(path, real))
			return fail(err, errlen, "cannot resolve", path);
		target = real;
	}
	size_t tl = strlen(target);
	char *tmp = xmalloc(tl + 16), *dcopy = xstrdup(target);
	/* mkstemp: an unpredictable name opened O_EXCL, so nothing planted
	 * there (a symlink) is followed. */
	snprintf(tmp, tl + 16, "%s/.asmcap-XXXXXX", dirname(dcopy));
	free(dcopy);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s (a temporary file in its directory): %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	mode_t mask = umask(0);
	umask(mask);
	int r = fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask);
	if (!r && write_all(fd, data, len))
		r = -1;
	if (close(fd))
		r = -1;
	if (r)
		fail(err, errlen, "writing", tmp);
	else if (rename(tmp, target))
		r = fail(err, errlen, "cannot replace", path);
	if (r)
		unlink(tmp);
	free(tmp);
	return r;
}

int file_output(const char *who, const char *path, const struct buf *b)
{
	char err[1024];
	if (!file_replace(path, b->s ? b->s : "", b->n, err, sizeof err))
		return 0;
	fprintf(stderr, "%s: %s\n", who, err);
	return 2;
}
