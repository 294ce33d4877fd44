/* The probe cache: text entries, each with the files its verdicts depend
 * on.  Format (tab-separated, fields escaped \\ \t \n):
 *   asmcap-cache 1
 *   entry KEY / word RESOLVED... / dep PATH SIZE MTIME / tool NAME VALUE /
 *   build ... / macro NAME VALUE / feature NAME STATUS MS REASON /
 *   flags NAME STATUS MS REASON (the no-directive answer) / end             */
#include "cache.h"
#include "arch.h"
#include "file.h"
#include "out.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- dependencies: a program and its DT_NEEDED libraries ---- */

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

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* File offset of virtual address va through the PT_LOAD headers. */
static int va_to_off(int fd, int is64, uint64_t phoff, unsigned phnum, unsigned phsz, uint64_t va, uint64_t *off)
{
	uint8_t ph[56];
	for (unsigned i = 0; i < phnum; i++) {
		if (pread_all(fd, ph, phsz, phoff + (uint64_t)i * phsz))
			return -1;
		if (rd(ph, 4) != 1)
			continue;
		uint64_t o = is64 ? rd(ph + 8, 8) : rd(ph + 4, 4), v = is64 ? rd(ph + 16, 8) : rd(ph + 8, 4),
		         fsz = is64 ? rd(ph + 32, 8) : rd(ph + 16, 4);
		if (va >= v && va - v < fsz) {
			*off = o + (va - v);
			return 0;
		}
	}
	return -1;
}

static void lib_lookup(struct strv *deps, const char *name, const char *runpath, const char *origin)
{
	static const char *const std[] = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
		"/lib/i386-linux-gnu", "/usr/lib/i386-linux-gnu", "/lib64", "/usr/lib64",
		"/lib", "/usr/lib", "/usr/local/lib", NULL};
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
	for (int i = 0; std[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", std[i], name);
		if (!stat(path, &st)) {
			add_dep(deps, path);
			return;
		}
	}
}

void deps_add_program(struct strv *deps, const char *path)
{
	char real[PATH_MAX];
	if (!realpath(path, real))
		return;
	add_dep(deps, path);
	int fd = open(real, O_RDONLY);
	if (fd < 0)
		return;
	uint8_t eh[64];
	if (pread_all(fd, eh, sizeof eh, 0) || memcmp(eh, "\177ELF", 4) || eh[5] != 1) {
		close(fd);
		return;             /* a script or a non-little-endian ELF: the file alone */
	}
	int is64 = eh[4] == 2;
	uint64_t phoff = is64 ? rd(eh + 32, 8) : rd(eh + 28, 4);
	unsigned phsz = is64 ? 56 : 32, phnum = rd(eh + (is64 ? 56 : 44), 2);
	uint64_t dynoff = 0, dynsz = 0;
	uint8_t ph[56];
	for (unsigned i = 0; i < phnum && i < 256; i++) {
		if (pread_all(fd, ph, phsz, phoff + (uint64_t)i * phsz))
			break;
		if (rd(ph, 4) == 2) {           /* PT_DYNAMIC */
			dynoff = is64 ? rd(ph + 8, 8) : rd(ph + 4, 4);
			dynsz = is64 ? rd(ph + 32, 8) : rd(ph + 16, 4);
		}
	}
	if (!dynsz || dynsz > (1 << 20)) {
		close(fd);
		return;
	}
	uint8_t *dyn = malloc(dynsz);
	uint64_t strva = 0, strsz = 0, runpath = UINT64_MAX;
	size_t entsz = is64 ? 16 : 8, nneeded = 0;
	uint64_t needed[64];
	if (!pread_all(fd, dyn, dynsz, dynoff))
		for (size_t k = 0; k + entsz <= dynsz; k += entsz) {
			uint64_t tag = rd(dyn + k, entsz / 2), val = rd(dyn + k + entsz / 2, entsz / 2);
			if (tag == 0)
				break;
			if (tag == 1 && nneeded < 64)
				needed[nneeded++] = val;
			else if (tag == 5)
				strva = val;
			else if (tag == 10)
				strsz = val;
			else if (tag == 29 || (tag == 15 && runpath == UINT64_MAX))
				runpath = val;
		}
	free(dyn);
	uint64_t stroff;
	if (strsz && strsz < (1 << 22) && !va_to_off(fd, is64, phoff, phnum, phsz, strva, &stroff)) {
		char *str = malloc(strsz + 1);
		if (!pread_all(fd, str, strsz, stroff)) {
			str[strsz] = 0;
			char origin[PATH_MAX];
			snprintf(origin, sizeof origin, "%s", real);
			char *slash = strrchr(origin, '/');
			if (slash)
				*slash = 0;
			const char *rp = runpath < strsz ? str + runpath : NULL;
			for (size_t i = 0; i < nneeded; i++)
				if (needed[i] < strsz)
					lib_lookup(deps, str + needed[i], rp, origin);
		}
		free(str);
	}
	close(fd);
}

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
	buf_printf(&b, "v1|%s|%s|%s|%s|%c|%s|%s|%s|%s|%s", o->way, o->cmd, o->cflags ? o->cflags : "",
	           o->asflags ? o->asflags : "", o->mode ? o->mode : 'S', o->flavour ? o->flavour : "",
	           o->features ? o->features : "*", o->disable ? o->disable : "", env ? env : "", h);
	/* where a driver looks for the programs it runs */
	static const char *const lookup[] = {"PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX", NULL};
	for (int i = 0; lookup[i]; i++)
		buf_printf(&b, "|%s", getenv(lookup[i]) ? getenv(lookup[i]) : "");
	free(h);
	return b.s;
}

static void stamp(const struct stat *st, char *out, size_t n)
{
	snprintf(out, n, "%lld\t%lld.%09ld", (long long)st->st_size, (long long)st->st_mtim.tv_sec,
	         (long)st->st_mtim.tv_nsec);
}

/* What each command word resolves to in PATH now ("-": not a program). */
/* Each word as the program it runs: found in PATH, then every symlink
 * followed, so that repointing /usr/bin/cc (update-alternatives) is a miss
 * even though the old target's stamps still hold. */
static char *resolved_words(const struct strv *w)
{
	struct buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < w->n; i++) {
		char *r = path_lookup(w->v[i]), real[PATH_MAX];
		buf_puts(&b, i ? "\t" : "");
		esc(&b, !r ? "-" : realpath(r, real) ? real : r);
		free(r);
	}
	return b.s;
}

static char *read_text(const char *path)
{
	size_t n;
	return (char *)file_read(path, &n);
}

char *cache_lookup(const char *file, const char *key, const struct strv *words)
{
	char *text = read_text(file);
	if (!text)
		return NULL;
	struct buf kb = {0}, body = {0};
	esc(&kb, key);
	char *want = resolved_words(words);
	int in = 0, valid = 0, hit = 0;
	for (char *l = text; *l && !hit;) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		char *next = nl ? nl + 1 : l + strlen(l);
		if (!strncmp(l, "entry\t", 6)) {
			in = valid = !strcmp(l + 6, kb.s);
			buf_free(&body);
		} else if (in && valid && !strncmp(l, "word\t", 5)) {
			valid = !strcmp(l + 5, want);
		} else if (in && valid && !strncmp(l, "dep\t", 4)) {
			char *f[4], now[96], was[96];
			struct stat st;
			valid = fields(l, f, 4) == 4 && !stat(f[1], &st);
			if (valid) {
				stamp(&st, now, sizeof now);
				snprintf(was, sizeof was, "%s\t%s", f[2], f[3]);
				valid = !strcmp(now, was);
			}
		} else if (in && valid && !strcmp(l, "end")) {
			hit = 1;
		} else if (in && valid) {
			buf_puts(&body, l);
			buf_puts(&body, "\n");
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

void cache_store(const char *file, const char *key, const struct strv *words, const struct strv *deps,
                 const char *payload)
{
	char *old = read_text(file);
	struct buf b = {0}, kb = {0};
	esc(&kb, key);
	buf_puts(&b, "asmcap-cache 1\n");
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
	char *w = resolved_words(words);
	buf_printf(&b, "entry\t%s\nword\t%s\n", kb.s, w);
	free(w);
	for (size_t i = 0; i < deps->n; i++) {
		struct stat st;
		char st_text[96];
		if (stat(deps->v[i], &st))
			continue;
		stamp(&st, st_text, sizeof st_text);
		buf_puts(&b, "dep\t");
		esc(&b, deps->v[i]);
		buf_printf(&b, "\t%s\n", st_text);
	}
	buf_puts(&b, payload);
	buf_puts(&b, "end\n");
	char err[256];
	if (out_file(file, b.s, b.n, err, sizeof err))
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

static enum status parse_status(const char *s)
{
	for (int i = ST_YES; i <= ST_DISABLED; i++)
		if (!strcmp(s, status_name((enum status)i)))
			return (enum status)i;
	return ST_NO;
}

int cache_get(const char *file, const char *key, const struct probe_opts *o, struct probe *p)
{
	struct strv w = {0};
	char e[64];
	split_words(o->cmd, &w, e, sizeof e);
	char *text = cache_lookup(file, key, &w);
	strv_free(&w);
	if (!text)
		return 0;
	memset(p, 0, sizeof *p);
	int ok = 1;
	for (char *l = text; *l && ok;) {
		char *nl = strchr(l, '\n');
		*nl = 0;
		char *f[8];
		size_t n = fields(l, f, 8);
		if (!strcmp(f[0], "tool") && n == 3) {
			char **dst = !strcmp(f[1], "path") ? &p->path : !strcmp(f[1], "identity") ? &p->identity :
			             !strcmp(f[1], "assembler") ? &p->assembler : NULL;
			if (dst) {
				free(*dst);
				*dst = strdup(f[2]);
			} else if (!strcmp(f[1], "arch"))
				snprintf(p->arch, sizeof p->arch, "%s", f[2]);
			else if (!strcmp(f[1], "format"))
				snprintf(p->format, sizeof p->format, "%s", f[2]);
			else if (!strcmp(f[1], "flavour"))
				snprintf(p->flavour, sizeof p->flavour, "%s", f[2]);
		} else if (!strcmp(f[0], "build") && n == 8) {
			struct build_info *b = &p->build;
			b->known = atoi(f[1]); b->cet_ibt = atoi(f[2]); b->cet_shstk = atoi(f[3]);
			b->pic = atoi(f[4]); b->ilp32 = atoi(f[5]); b->apple = atoi(f[6]); b->win64 = atoi(f[7]);
		} else if (!strcmp(f[0], "macro") && n == 3 && arch_macro_named(f[1])) {
			build_macro_set(&p->build, arch_macro_named(f[1]), atol(f[2]));
		} else if ((!strcmp(f[0], "feature") || !strcmp(f[0], "flags")) && n == 5 && p->v) {
			struct verdict *vs = !strcmp(f[0], "feature") ? p->v : p->vf;
			for (size_t i = 0; i < p->cat.n; i++)
				if (!strcmp(p->cat.f[i].name, f[1])) {
					vs[i].st = parse_status(f[2]);
					vs[i].ms = atof(f[3]);
					free(vs[i].reason);
					vs[i].reason = strdup(f[4]);
				}
		} else if (!strcmp(f[0], "catalog") && n == 2 && !p->v) {
			char err[256];
			ok = !probe_load_catalog(p, o, f[1], err, sizeof err);
			p->target = arch_named(f[1]);
		}
		l = nl + 1;
	}
	free(text);
	int hit = ok && p->v != NULL;
	for (size_t i = 0; hit && i < p->cat.n; i++)
		hit = p->v[i].reason != NULL && (!p->cat.f[i].nenable || p->vf[i].reason != NULL);
	if (!hit) {
		probe_free(p);
		return 0;
	}
	p->way = o->way;
	p->mode = o->mode ? o->mode : 'S';
	split_words(o->cmd, &p->argv, e, sizeof e);
	p->cflags = strdup(o->cflags ? o->cflags : "");
	p->asflags = strdup(o->asflags ? o->asflags : "");
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
	buf_printf(&b, "build\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", bi->known, bi->cet_ibt, bi->cet_shstk,
	           bi->pic, bi->ilp32, bi->apple, bi->win64);
	for (size_t i = 0; i < bi->nmacro; i++)
		buf_printf(&b, "macro\t%s\t%ld\n", bi->macro[i].name, bi->macro[i].value);
	for (size_t i = 0; i < p->cat.n; i++) {
		buf_printf(&b, "feature\t%s\t%s\t%.1f", p->cat.f[i].name, status_name(p->v[i].st), p->v[i].ms);
		cache_field(&b, p->v[i].reason);
		buf_puts(&b, "\n");
		if (p->cat.f[i].nenable) {
			buf_printf(&b, "flags\t%s\t%s\t%.1f", p->cat.f[i].name, status_name(p->vf[i].st), p->vf[i].ms);
			cache_field(&b, p->vf[i].reason);
			buf_puts(&b, "\n");
		}
	}
	cache_store(file, key, &p->argv, &p->deps, b.s);
	buf_free(&b);
}
