/* SPDX-License-Identifier: MIT */
/* The files a cached verdict depends on: a program and the shared
 * libraries it needs (DT_NEEDED, found through its RUNPATH/RPATH, the
 * ld.so.conf directories and the standard ones), and the option files
 * (@response, --config, -specs=) a command's words name. */
#include "cache.h"
#include "file.h"
#include "obj.h"
#include "xalloc.h"

#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int has(const struct strv *s, const char *w)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], w))
			return 1;
	return 0;
}

static void add_dep(struct strv *deps, const char *path)
{
	char real[PATH_MAX];
	const char *p = realpath(path, real) ? real : path;
	if (!has(deps, p))
		strv_push(deps, p);
}

/* The directories file (ld.so.conf syntax) lists, and those of the files
 * its `include' lines name (a glob, relative to the file's directory). */
static void ld_conf(const char *file, struct strv *dirs, int depth)
{
	FILE *f = depth < 4 ? fopen(file, "r") : NULL;
	char line[PATH_MAX];
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "#\n")] = 0;
		char *w = line + strspn(line, " \t"), *end = w + strlen(w);
		while (end > w && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = 0;
		if (!strncmp(w, "include", 7) && (w[7] == ' ' || w[7] == '\t')) {
			char pat[2 * PATH_MAX + 2];
			const char *g = w + 8 + strspn(w + 8, " \t"), *slash = strrchr(file, '/');
			glob_t found;
			snprintf(pat, sizeof pat, "%.*s%s", *g == '/' || !slash ? 0 : (int)(slash - file + 1), file, g);
			if (!glob(pat, 0, NULL, &found))
				for (size_t i = 0; i < found.gl_pathc; i++)
					ld_conf(found.gl_pathv[i], dirs, depth + 1);
			globfree(&found);
		} else if (*w == '/') {
			strv_push(dirs, w);
		}
	}
	if (f)
		fclose(f);
}

/* Where the dynamic loader looks after RUNPATH and LD_LIBRARY_PATH: the
 * directories of /etc/ld.so.conf (on Debian the host's multiarch ones,
 * /usr/lib/<triple>), then its built-in ones; read once. */
static const struct strv *system_lib_dirs(void)
{
	static struct strv dirs;
	static int done;
	if (!done++) {
		ld_conf("/etc/ld.so.conf", &dirs, 0);
		for (const char *const *d = (const char *const[]){"/lib64", "/usr/lib64", "/lib", "/usr/lib", NULL}; *d; d++)
			strv_push(&dirs, *d);
	}
	return &dirs;
}

static void lib_lookup(struct strv *deps, const char *name, const char *runpath, const char *origin)
{
	const struct strv *std = system_lib_dirs();
	char path[2 * PATH_MAX + 2];
	struct stat st;
	const char *lp = getenv("LD_LIBRARY_PATH");
	const char *lists[] = {runpath ? runpath : "", lp ? lp : ""};
	for (int l = 0; l < 2; l++)
		for (const char *p = lists[l]; *p;) {
			size_t n = strcspn(p, ":");
			char dir[PATH_MAX];
			snprintf(dir, sizeof dir, "%.*s", (int)(n < PATH_MAX - 1 ? n : PATH_MAX - 1), p);
			if (!strncmp(dir, "$ORIGIN", 7) || !strncmp(dir, "${ORIGIN}", 9)) {
				const char *rest = dir + (dir[1] == '{' ? 9 : 7);
				char tmp[PATH_MAX];
				snprintf(tmp, sizeof tmp, "%s%s", origin, rest);
				snprintf(dir, sizeof dir, "%s", tmp);
			}
			snprintf(path, sizeof path, "%s/%s", dir, name);
			if (*dir && !stat(path, &st)) {
				add_dep(deps, path);
				return;
			}
			p += n + (p[n] == ':');
		}
	for (size_t i = 0; i < std->n; i++) {
		snprintf(path, sizeof path, "%s/%s", std->v[i], name);
		if (!stat(path, &st)) {
			add_dep(deps, path);
			return;
		}
	}
}

/* The libraries an ELF program needs, looked up as the loader would; its
 * bytes are mapped, not read, so a large compiler costs only the pages of
 * its headers. */
static void needed_libs(struct strv *deps, const char *real, int fd, size_t size)
{
	void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	struct obj_dynamic d;
	char err[160], origin[PATH_MAX];
	if (map == MAP_FAILED)
		return;
	snprintf(origin, sizeof origin, "%s", real);
	char *slash = strrchr(origin, '/');
	if (slash)
		*slash = 0;
	/* A file that is not ELF (a script) or does not parse: the file alone. */
	if (!obj_elf_dynamic(map, size, &d, err, sizeof err))
		for (size_t i = 0; i < d.nneeded; i++)
			lib_lookup(deps, d.needed[i], d.runpath, origin);
	munmap(map, size);
}

void deps_add_program(struct strv *deps, const char *path)
{
	char real[PATH_MAX];
	if (!realpath(path, real))
		return;
	add_dep(deps, path);
	int fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC);   /* a FIFO must not block */
	struct stat st;
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX)
		needed_libs(deps, real, fd, (size_t)st.st_size);
	close(fd);
}

void deps_add_file(struct strv *deps, const char *path)
{
	struct stat st;
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		add_dep(deps, path);
}

/* The option file a word names, or NULL: `@FILE' (a response file),
 * `--config=FILE' or `--config FILE' (clang; a name without a slash is
 * searched for, and -v names what was found), `-specs=FILE' (gcc). */
static const char *option_file(char *const *w, size_t i, size_t n)
{
	static const char *const eq[] = {"--config=", "-specs=", "--specs=", NULL};
	if (w[i][0] == '@')
		return w[i] + 1;
	for (const char *const *e = eq; *e; e++)
		if (!strncmp(w[i], *e, strlen(*e)))
			return w[i] + strlen(*e);
	return !strcmp(w[i], "--config") && i + 1 < n ? w[i + 1] : NULL;
}

/* Each option file words name, and those a response file names in turn
 * (depth bounded: a response file may name itself). */
static void option_files(struct strv *deps, const struct strv *words, int depth)
{
	for (size_t i = 0; i < words->n; i++) {
		const char *f = option_file(words->v, i, words->n);
		size_t before = deps->n;
		if (!f || !*f)
			continue;
		deps_add_file(deps, f);
		size_t len;
		char *text = words->v[i][0] == '@' && deps->n > before && depth < 8 ? (char *)file_read(f, &len) : NULL;
		struct strv inner = {0};
		char e[64];
		if (text && !argv_split_words(text, &inner, e, sizeof e))
			option_files(deps, &inner, depth + 1);
		strv_free(&inner);
		free(text);
	}
}

void deps_add_words(struct strv *deps, const struct strv *words, int programs)
{
	for (size_t i = 0; programs && i < words->n; i++) {
		char *w = driver_path_lookup(words->v[i]);
		if (w)
			deps_add_program(deps, w);
		free(w);
	}
	option_files(deps, words, 0);
}
