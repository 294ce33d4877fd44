/* SPDX-License-Identifier: MIT */
/* The cache of every kind of probe (the assembler probe, cc-probe,
 * cc-flag): text entries, each with the files its verdicts depend on and
 * a payload of its kind's own.  Format (tab-separated, fields escaped
 * \\ \t \n):
 *   asmcap-cache 4
 *   entry KEY / kind KIND / word RESOLVED... / dep PATH SIZE MTIME CTIME DEV:INO /
 *   then the payload; the assembler probe's (cache_put) is
 *   catalog ARCH / tool NAME VALUE /
 *   build KNOWN / macro NAME VALUE (the build facts' macros too) / feature NAME STATUS MS REASON /
 *   flags NAME STATUS MS REASON (the no-directive answer) /
 *   flags-blamed NAME / sum HASH / end
 * HASH is a 64-bit FNV-1a over the entry's lines from `entry' to `sum':
 * an entry that does not match it, or holds anything unknown, is a miss. */
#include "cache.h"
#include "arch.h"
#include "file.h"
#include "out.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- option files ---- */

/* ---- the cache file ---- */

static void esc(struct buf *b, const char *s)
{
	for (; s && *s; s++)
		buf_puts(b, *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : (char[2]){*s, 0});
}

/* Split one line into unescaped tab-separated fields (in place). */
static size_t fields(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *w = line;
	f[n++] = w;
	for (char *r = line; *r; r++) {
		if (*r == '\t' && n < max) {   /* beyond max, tabs stay in the last field */
			*w++ = 0;
			f[n++] = w;
		} else if (*r == '\\' && r[1]) {
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
		} else
			*w++ = *r;
	}
	*w = 0;
	return n;
}

static char *catalog_hashes(const char *dir)
{
	struct buf b = {0};
	char err[256];
	for (int i = 0; arch_all[i]; i++) {
		struct catalog c;
		int r = catalog_load(&c, dir, arch_all[i]->name, err, sizeof err);
		buf_printf(&b, "%s%s", i ? "," : "", r ? "none" : c.hash);
		if (!r)
			catalog_free(&c);
	}
	return b.s;
}

char *cache_key(const struct probe_opts *o)
{
	struct buf b = {0};
	char *h = catalog_hashes(o->templates);
	const char *env = getenv("ASMCAP_DISABLE");
	buf_printf(&b, "%s|%s|%s|%s|%c|%s|%s|%s|%s|%s", o->way, o->cmd, o->cflags ? o->cflags : "",
	           o->asflags ? o->asflags : "", o->mode ? o->mode : 'S', o->flavour ? o->flavour : "",
	           o->features ? o->features : "*", o->disable ? o->disable : "", env ? env : "", h);
	/* where a driver looks for the programs it runs */
	static const char *const lookup[] = {"PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX", NULL};
	for (int i = 0; lookup[i]; i++)
		buf_printf(&b, "|%s", getenv(lookup[i]) ? getenv(lookup[i]) : "");
	free(h);
	return b.s;
}

/* A dependency's stamp: size and mtime, which a rebuild changes, and the
 * inode change time and inode, which `cp -p', `rsync -a' and `tar x'
 * cannot restore: a same-size replacement given the old mtime is a miss.
 * (A chmod also moves the ctime: one needless re-probe.) */
static void stamp(const struct stat *st, char *out, size_t n)
{
	snprintf(out, n, "%lld\t%lld.%09ld\t%lld.%09ld\t%llu:%llu", (long long)st->st_size,
	         (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec,
	         (long)st->st_ctim.tv_nsec, (unsigned long long)st->st_dev, (unsigned long long)st->st_ino);
}

#define CACHE_MAGIC "asmcap-cache "
/* 4: one format for every kind (3 had no kind line); a file of another
 * number holds nothing this one reads, and is replaced when written. */
#define CACHE_HEAD CACHE_MAGIC "4\n"

int cache_option(void *cmd, const struct opts *s, const struct opt *o, const char *val)
{
	/* O_NONBLOCK: a FIFO opens without a writer and is not read here */
	int fd = open(val, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	char head[sizeof CACHE_MAGIC - 1];
	int foreign = fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	              (read(fd, head, sizeof head) != (ssize_t)sizeof head || memcmp(head, CACHE_MAGIC, sizeof head));
	if (fd >= 0)
		close(fd);
	if (foreign)
		return opt_usage(s, "--cache: not a cache asmcap wrote (it would be overwritten); "
		                 "give a new or empty file:", val);
	*(const char **)((char *)cmd + o->at) = val;
	return 0;
}

/* Each word as the program it runs: found in PATH, then every symlink
 * followed, so that repointing /usr/bin/cc (update-alternatives) is a miss
 * even though the old target's stamps still hold. */
static char *resolved_words(const struct strv *w)
{
	struct buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < w->n; i++) {
		char *r = driver_path_lookup(w->v[i]), real[PATH_MAX];
		buf_puts(&b, i ? "\t" : "");
		esc(&b, !r ? "-" : realpath(r, real) ? real : r);
		free(r);
	}
	return b.s;
}

/* The cache file, or NULL: a missing file quietly (the first run), one
 * that cannot be read (a FIFO, too big) with a warning. */
static char *read_text(const char *path)
{
	size_t n;
	char *t = (char *)file_read(path, &n);
	if (!t && errno != ENOENT)
		fprintf(stderr, "asmcap: warning: cache %s not read: %s\n", path, file_error());
	if (t && strlen(t) != n) {
		fprintf(stderr, "asmcap: warning: cache %s not read: it contains a NUL byte\n", path);
		free(t);
		t = NULL;
	}
	return t;
}

static uint64_t fnv_line(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ULL;
	return (h ^ '\n') * 0x100000001b3ULL;
}

#define FNV_INIT 0xcbf29ce484222325ULL

char *cache_lookup(const char *file, const char *kind, const char *key, const struct strv *words)
{
	char *text = read_text(file);
	if (text && strncmp(text, CACHE_HEAD, strlen(CACHE_HEAD))) {
		free(text);
		text = NULL;
	}
	if (!text)
		return NULL;
	struct buf kb = {0}, body = {0};
	esc(&kb, key);
	char *want = resolved_words(words);
	int in = 0, valid = 0, hit = 0, summed = 0, kinded = 0;
	uint64_t h = FNV_INIT;
	for (char *l = text; *l && !hit;) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		char *next = nl ? nl + 1 : l + strlen(l);
		if (!strncmp(l, "entry\t", 6)) {
			in = valid = !strcmp(l + 6, kb.s);
			summed = kinded = 0;
			h = fnv_line(FNV_INIT, l, strlen(l));
			buf_free(&body);
		} else if (!in || !valid) {
			/* another key's entry, or this one already failed */
		} else if (summed) {
			valid = 0;
			hit = kinded && !strcmp(l, "end");
		} else if (!strncmp(l, "sum\t", 4)) {
			char want_sum[32];
			snprintf(want_sum, sizeof want_sum, "%016llx", (unsigned long long)h);
			valid = summed = !strcmp(l + 4, want_sum);
		} else {
			h = fnv_line(h, l, strlen(l));
			if (!strncmp(l, "kind\t", 5)) {
				valid = !kinded && !strcmp(l + 5, kind);
				kinded = 1;
			} else if (!strncmp(l, "word\t", 5)) {
				valid = !strcmp(l + 5, want);
			} else if (!strncmp(l, "dep\t", 4)) {
				char *f[6], now[160], was[160];
				struct stat st;
				valid = fields(l, f, 6) == 6 && !stat(f[1], &st);
				if (valid) {
					stamp(&st, now, sizeof now);
					snprintf(was, sizeof was, "%s\t%s\t%s\t%s", f[2], f[3], f[4], f[5]);
					valid = !strcmp(now, was);
				}
			} else {
				buf_puts(&body, l);
				buf_puts(&body, "\n");
			}
		}
		l = next;
	}
	free(text);
	free(want);
	buf_free(&kb);
	if (!hit) {
		buf_free(&body);
		return NULL;
	}
	if (!body.s)
		buf_puts(&body, "");
	return body.s;
}

void cache_store(const char *file, const char *kind, const char *key, const struct strv *words,
                 const struct strv *deps, const char *payload)
{
	char *old = read_text(file);
	if (old && strncmp(old, CACHE_HEAD, strlen(CACHE_HEAD))) {
		free(old);      /* another format: nothing in it to keep */
		old = NULL;
	}
	struct buf b = {0}, kb = {0};
	esc(&kb, key);
	buf_puts(&b, CACHE_HEAD);
	/* keep the other keys' entries, the newest 31 of them */
	size_t total = 0;
	for (int pass = 0; pass < 2 && old; pass++) {
		size_t idx = 0;
		int keep = 0;
		for (char *l = old; *l;) {
			size_t len = strcspn(l, "\n");
			if (!strncmp(l, "entry\t", 6)) {
				keep = !(len - 6 == kb.n && !strncmp(l + 6, kb.s, len - 6));
				idx += keep;
				keep = keep && idx + 31 > total;
			}
			if (pass == 1 && keep) {
				buf_add(&b, l, len);
				buf_puts(&b, "\n");
			}
			l += len + (l[len] == '\n');
		}
		total = idx;
	}
	size_t start = b.n;
	char *w = resolved_words(words);
	buf_printf(&b, "entry\t%s\nkind\t%s\nword\t%s\n", kb.s, kind, w);
	free(w);
	for (size_t i = 0; i < deps->n; i++) {
		struct stat st;
		char st_text[160];
		if (stat(deps->v[i], &st))
			continue;
		stamp(&st, st_text, sizeof st_text);
		buf_puts(&b, "dep\t");
		esc(&b, deps->v[i]);
		buf_printf(&b, "\t%s\n", st_text);
	}
	buf_puts(&b, payload);
	uint64_t h = FNV_INIT;
	for (size_t at = start; at < b.n;) {
		size_t len = strcspn(b.s + at, "\n");
		h = fnv_line(h, b.s + at, len);
		at += len + 1;
	}
	buf_printf(&b, "sum\t%016llx\nend\n", (unsigned long long)h);
	char err[256];
	if (file_replace(file, b.s, b.n, err, sizeof err))
		fprintf(stderr, "asmcap: warning: cache not written: %s\n", err);
	free(old);
	buf_free(&b);
	buf_free(&kb);
}

void cache_field(struct buf *b, const char *s)
{
	buf_puts(b, "\t");
	esc(b, s);
}

size_t cache_fields(char *line, char **f, size_t max)
{
	return fields(line, f, max);
}

/* -1 for a status this version does not know. */
static int parse_status(const char *s)
{
	for (int i = ST_YES; i <= ST_UNPROBED; i++)
		if (!strcmp(s, engine_status_name((enum status)i)))
			return i;
	return -1;
}

/* A flag field: "0" or "1" (max 1), or a small count up to max. */
static int parse_small(const char *s, int max, int *out)
{
	if (s[0] < '0' || s[0] > '0' + max || s[1])
		return -1;
	*out = s[0] - '0';
	return 0;
}

static int parse_ms(const char *s, double *out)
{
	char *end;
	if (!*s || strspn(s, "0123456789.") != strlen(s))
		return -1;
	*out = strtod(s, &end);
	return *end ? -1 : 0;
}

/* A payload line that adds to a feature's verdict: how many snippets its
 * run held, or that the build's flags were blamed.  0, or -1. */
static int verdict_note(char **f, size_t n, struct probe *p)
{
	const struct feature *ft = n > 1 && p->v ? catalog_find(&p->cat, f[1]) : NULL;
	struct verdict *v = ft ? &p->v[ft - p->cat.f] : NULL;
	if (v && !strcmp(f[0], "shared") && n == 3) {
		char *end;
		unsigned long k = strtoul(f[2], &end, 10);
		if (v->shared || !*f[2] || *end || !k)
			return -1;
		v->shared = k;
		return 0;
	}
	if (v && !strcmp(f[0], "flags-blamed") && n == 2 && !v->flags_blamed) {
		v->flags_blamed = 1;
		return 0;
	}
	return -1;
}

/* One payload line into p; 0, or -1 for anything unknown or malformed
 * (the entry is then a miss, never a guess). */
static int payload_line(char *l, const struct probe_opts *o, struct probe *p, unsigned char *got)
{
	char *f[9];
	size_t n = fields(l, f, 9);
	if (!strcmp(f[0], "catalog") && n == 2 && !p->v) {
		char err[256];
		if (probe_load_catalog(p, o, f[1], err, sizeof err))
			return -1;
		p->target = arch_named(f[1]);
		return 0;
	}
	if (!strcmp(f[0], "macro") && n == 3) {
		const char *name = arch_build_macro_named(f[1]);
		char *end;
		long value = strtol(f[2], &end, 10);
		if (!name || !*f[2] || *end)
			return -1;
		driver_build_macro_set(&p->build, name, value);
		return 0;
	}
	if (!strcmp(f[0], "tool") && n == 3) {
		static const char *const names[] = {"path", "identity", "assembler", "arch", "format", "flavour"};
		char **str[] = {&p->path, &p->identity, &p->assembler};
		char *fixed[] = {p->arch, p->format, p->flavour};
		for (int i = 0; i < 6; i++)
			if (!strcmp(f[1], names[i])) {
				if (got[i]++)
					return -1;
				if (i == 3 && *p->arch && strcmp(p->arch, f[2]))
					return -1;      /* the recorded arch is the catalog line's */
				if (i < 3)
					*str[i] = xstrdup(f[2]);
				else if (strlen(f[2]) >= sizeof p->arch || !*f[2])
					return -1;
				else
					strcpy(fixed[i - 3], f[2]);
				return 0;
			}
		return -1;
	}
	if (!strcmp(f[0], "build") && n == 2 && !got[6]++)
		return parse_small(f[1], 1, &p->build.known);
	if ((!strcmp(f[0], "feature") || !strcmp(f[0], "flags")) && n == 5 && p->v) {
		const struct feature *ft = catalog_find(&p->cat, f[1]);
		int flags = !strcmp(f[0], "flags"), st = parse_status(f[2]);
		size_t i = ft ? (size_t)(ft - p->cat.f) : 0;
		struct verdict *v = flags ? &p->vf[i] : &p->v[i];
		if (!ft || st < 0 || (flags && !ft->nenable) || v->reason || parse_ms(f[3], &v->ms))
			return -1;
		v->st = (enum status)st;
		v->reason = xstrdup(f[4]);
		return 0;
	}
	if (!strcmp(f[0], "spelling") && n == 3 && p->v) {
		/* the `enable:' spelling a yes came from, when not the first
		 * (cache_put writes it; a catalog may hold ten at most) */
		const struct feature *ft = catalog_find(&p->cat, f[1]);
		int k;
		if (!ft || p->v[ft - p->cat.f].spelling || parse_small(f[2], ft->nenable > 9 ? 9 : (int)ft->nenable - 1, &k) || k < 1)
			return -1;
		p->v[ft - p->cat.f].spelling = (unsigned)k;
		return 0;
	}
	return verdict_note(f, n, p);
}

int cache_get(const char *file, const char *key, const struct probe_opts *o, struct probe *p)
{
	struct strv w = {0};
	char e[64];
	argv_split_words(o->cmd, &w, e, sizeof e);
	char *text = cache_lookup(file, "probe", key, &w);
	strv_free(&w);
	if (!text)
		return 0;
	memset(p, 0, sizeof *p);
	unsigned char got[7] = {0};     /* tool lines 0..5, build 6 */
	int ok = 1;
	for (char *l = text; *l && ok;) {
		char *nl = strchr(l, '\n');
		*nl = 0;
		ok = !payload_line(l, o, p, got);
		l = nl + 1;
	}
	free(text);
	for (int i = 0; i < 7; i++)
		ok &= got[i] == 1;
	int hit = ok && p->v != NULL;
	for (size_t i = 0; hit && i < p->cat.n; i++)
		hit = p->v[i].reason != NULL && (!p->cat.f[i].nenable || p->vf[i].reason != NULL);
	if (!hit) {
		probe_free(p);
		return 0;
	}
	p->way = o->way;
	p->mode = o->mode ? o->mode : 'S';
	argv_split_words(o->cmd, &p->argv, e, sizeof e);
	p->cflags = xstrdup(o->cflags ? o->cflags : "");
	p->asflags = xstrdup(o->asflags ? o->asflags : "");
	return 1;
}

void cache_put(const char *file, const char *key, const struct probe *p)
{
	struct buf b = {0};
	const char *tools[][2] = {{"path", p->path}, {"identity", p->identity}, {"assembler", p->assembler},
	                          {"arch", p->arch}, {"format", p->format}, {"flavour", p->flavour}};
	buf_puts(&b, "catalog");
	cache_field(&b, p->arch);
	buf_puts(&b, "\n");
	for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
		buf_printf(&b, "tool\t%s", tools[i][0]);
		cache_field(&b, tools[i][1] ? tools[i][1] : "");
		buf_puts(&b, "\n");
	}
	const struct build_info *bi = &p->build;
	buf_printf(&b, "build\t%d\n", bi->known);
	for (size_t i = 0; i < bi->nmacro; i++)
		buf_printf(&b, "macro\t%s\t%ld\n", bi->macro[i].name, bi->macro[i].value);
	for (size_t i = 0; i < p->cat.n; i++) {
		buf_printf(&b, "feature\t%s\t%s\t%.1f", p->cat.f[i].name, engine_status_name(p->v[i].st), p->v[i].ms);
		cache_field(&b, p->v[i].reason);
		buf_puts(&b, "\n");
		if (p->v[i].flags_blamed)
			buf_printf(&b, "flags-blamed\t%s\n", p->cat.f[i].name);
		if (p->v[i].spelling)
			buf_printf(&b, "spelling\t%s\t%u\n", p->cat.f[i].name, p->v[i].spelling);
		if (p->v[i].shared)
			buf_printf(&b, "shared\t%s\t%zu\n", p->cat.f[i].name, p->v[i].shared);
		if (p->cat.f[i].nenable) {
			buf_printf(&b, "flags\t%s\t%s\t%.1f", p->cat.f[i].name, engine_status_name(p->vf[i].st), p->vf[i].ms);
			cache_field(&b, p->vf[i].reason);
			buf_puts(&b, "\n");
		}
	}
	cache_store(file, "probe", key, &p->argv, &p->deps, b.s);
	buf_free(&b);
}
