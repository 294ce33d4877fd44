/* SPDX-License-Identifier: MIT */
/* What the toolchain says of itself: the driver's -v/-### lines (its
 * identity, the programs it runs, whether it assembles itself), the build
 * macros of `-dM -E', and the files its verdicts depend on. */
#include "asmrun.h"
#include "arch.h"
#include "cache.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *driver_path_lookup(const char *name)
{
	struct stat st;
	if (strchr(name, '/'))
		return stat(name, &st) || !S_ISREG(st.st_mode) || access(name, X_OK) ? NULL : xstrdup(name);
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		char full[4096];
		snprintf(full, sizeof full, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", name);
		if (!stat(full, &st) && S_ISREG(st.st_mode) && !access(full, X_OK))
			return xstrdup(full);
		path += n + (path[n] == ':');
	}
	return NULL;
}

void driver_build_macro_set(struct build_info *b, const char *name, long value)
{
	for (size_t i = 0; i < b->nmacro; i++)
		if (!strcmp(b->macro[i].name, name)) {
			b->macro[i].value = value;
			return;
		}
	if (b->nmacro < BUILD_MAX_MACROS)
		b->macro[b->nmacro++] = (struct build_macro){name, value};
}

long driver_build_fact(const struct build_info *b, const struct arch_fact *f)
{
	for (size_t i = 0; i < b->nmacro; i++)
		if (!strcmp(b->macro[i].name, f->macro))
			return f->kind == ARCH_FACT_NUMBER ? b->macro[i].value
			       : f->kind == ARCH_FACT_DEFINED || (b->macro[i].value & f->mask);
	return 0;
}

/* `-dM -E` output (in --mode s, where no preprocessor sees the source;
 * the target is not known yet, so every module's macros count). */
void driver_parse_defines(struct build_info *b, const char *text)
{
	memset(b, 0, sizeof *b);
	b->known = 1;
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		char name[64];
		long val = 1;
		const char *mod;
		if (sscanf(l, "#define %63s %ld", name, &val) < 1)
			continue;
		if ((mod = arch_build_macro_named(name)))
			driver_build_macro_set(b, mod, val);
	}
}

char *driver_command(const char *l, size_t len, struct strv *deps, int *cc1as)
{
	struct strv w = {0};
	char e[64], *full = xmalloc(len + 1), *prog = NULL, *word0 = NULL;
	memcpy(full, l, len);
	full[len] = 0;
	*cc1as = 0;
	/* clang reads its configuration files (--config, and the default
	 * ones) before anything else; they can change every verdict */
	if (!strncmp(full, "Configuration file: ", 20))
		deps_add_file(deps, full + 20);
	/* command lines start with a space and name a program */
	if ((full[0] == ' ' || full[0] == '\t') && !argv_split_words(full, &w, e, sizeof e) && w.n &&
	    (prog = driver_path_lookup(w.v[0]))) {
		deps_add_program(deps, prog);
		for (size_t i = 1; i < w.n; i++)
			*cc1as |= !strcmp(w.v[i], "-cc1as");
		word0 = xstrdup(w.v[0]);
	}
	free(prog);
	free(full);
	strv_free(&w);
	return word0;
}

/* From the first run's `-v' output: the driver's identity line, the
 * programs it runs (deps), whether the assembler is integrated (-cc1as),
 * and an external assembler's own version line (as -v prints it).
 * Returns the external assembler's program, or NULL. */
char *driver_parse(struct probe *p, const char *text, int *integrated)
{
	char *as = NULL, *as_version = NULL;
	*integrated = 0;
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		size_t len = strcspn(l, "\n");
		char *line = out_one_line(l, len < 4000 ? len : 4000);
		if (line[0] != ' ' && strstr(line, " version ")) {
			if (!p->identity)
				p->identity = xstrdup(line);
			else if (as && !as_version)
				as_version = xstrdup(line);     /* what the last program printed */
		}
		int cc1as;
		char *cmd = driver_command(l, len, &p->deps, &cc1as);
		if (cmd) {
			free(as);
			free(as_version);
			as_version = NULL;
			as = cc1as ? NULL : cmd;
			if (cc1as)
				free(cmd);
			*integrated = cc1as;
		}
		free(line);
	}
	if (as && as_version && !p->assembler)
		p->assembler = as_version;
	else
		free(as_version);
	return as;
}
