/* SPDX-License-Identifier: MIT */
/* asmcap choose's spec: key: value lines, one variant a line, checked
 * whole before anything is built. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choose-spec.h"
#include "file.h"
#include "xalloc.h"

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

static int spec_error(const char *file, int line, const char *what)
{
	fprintf(stderr, "asmcap choose: %s:%d: %s\n", file, line, what);
	return -1;
}

static int ident(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* A `variant: NAME = FLAGS' line's value: 0, or -1 (reported). */
static int spec_variant(struct spec *sp, char *val, const char *file, int ln)
{
	char *eq = strchr(val, '=');
	if (!eq)
		return spec_error(file, ln, "variant is 'NAME = FLAGS'");
	*eq = 0;
	char *name = trim(val);
	if (!ident(name) || strlen(name) >= sizeof sp->v[0].name)
		return spec_error(file, ln, "variant name must be letters, digits and _");
	if (sp->nv == MAXV)
		return spec_error(file, ln, "too many variants (16 at most)");
	for (size_t k = 0; k < sp->nv; k++)
		if (!strcmp(sp->v[k].name, name))
			return spec_error(file, ln, "variant named twice");
	strcpy(sp->v[sp->nv].name, name);
	sp->v[sp->nv++].flags = xstrdup(trim(eq + 1));
	return 0;
}

/* One line (NUL-terminated, not yet trimmed): 0, or -1 (reported). */
static int spec_line(struct spec *sp, char *line, const char *file, int ln)
{
	char *s = trim(line);
	if (!*s || *s == '#')
		return 0;
	char *colon = strchr(s, ':');
	if (!colon)
		return spec_error(file, ln, "expected 'key: value'");
	*colon = 0;
	char *key = trim(s), *val = trim(colon + 1);
	char **slot = !strcmp(key, "name") ? &sp->name : !strcmp(key, "source") ? &sp->source :
	              !strcmp(key, "function") ? &sp->function : !strcmp(key, "check") ? &sp->check :
	              !strcmp(key, "bench") ? &sp->bench : !strcmp(key, "metric") ? &sp->metric :
	              !strcmp(key, "default") ? &sp->def : NULL;
	if (!strcmp(key, "variant"))
		return spec_variant(sp, val, file, ln);
	if (!slot)
		return spec_error(file, ln, "unknown key (name source function check bench metric default variant)");
	if (*slot)
		return spec_error(file, ln, "key given twice");
	if (!*val)
		return spec_error(file, ln, "empty value");
	*slot = xstrdup(val);
	return 0;
}

/* The whole spec read: every key it needs, and names that fit together.
 * 0, or -1 (reported at line ln, the last). */
static int spec_check(struct spec *sp, const char *file, int ln)
{
	const char *missing = !sp->name ? "name" : !sp->source ? "source" : !sp->function ? "function" :
	                      !sp->check ? "check" : !sp->metric ? "metric" : NULL;
	if (missing) {
		char what[64];
		snprintf(what, sizeof what, "missing key '%s'", missing);
		return spec_error(file, ln, what);
	}
	if (strcmp(sp->metric, "cycles") && strcmp(sp->metric, "frame") && strcmp(sp->metric, "size"))
		return spec_error(file, ln, "metric must be cycles, frame or size");
	if (!strcmp(sp->metric, "cycles") && !sp->bench)
		return spec_error(file, ln, "metric cycles needs a bench entry point");
	if (!ident(sp->name) || !ident(sp->check) || (sp->bench && !ident(sp->bench)) || !ident(sp->function))
		return spec_error(file, ln, "name, function, check and bench must be C identifiers");
	if (sp->nv < 1)
		return spec_error(file, ln, "no variants");
	if (!sp->def)
		sp->def = xstrdup(sp->v[0].name);
	for (size_t k = 0; k < sp->nv; k++)
		if (!strcmp(sp->v[k].name, sp->def))
			return 0;
	return spec_error(file, ln, "default names no variant");
}

/* Read whole (bounded, regular files only) and taken a line at a time: no
 * line is cut at a buffer's length, and a NUL is an error. */
int choose_spec_load(struct spec *sp, const char *file)
{
	size_t len;
	char *text = (char *)file_read(file, &len);
	if (!text) {
		fprintf(stderr, "asmcap choose: cannot read spec %s: %s\n", file, file_error());
		return -1;
	}
	const char *slash = strrchr(file, '/');
	sp->dir = slash ? xstrndup(file, (size_t)(slash - file)) : xstrdup(".");
	int ln = 0, rc = 0;
	for (char *line = text, *next; !rc && line < text + len; line = next) {
		ln++;
		size_t n = strcspn(line, "\n");
		next = line + n + (line[n] == '\n');
		if (!line[n] && line + n < text + len)
			rc = spec_error(file, ln, "contains a NUL byte");
		else {
			line[n] = 0;
			rc = spec_line(sp, line, file, ln);
		}
	}
	free(text);
	return rc ? -1 : spec_check(sp, file, ln);
}

void choose_spec_free(struct spec *sp)
{
	free(sp->dir); free(sp->name); free(sp->source); free(sp->function);
	free(sp->check); free(sp->bench); free(sp->metric); free(sp->def);
	for (size_t k = 0; k < sp->nv; k++)
		free(sp->v[k].flags), free(sp->v[k].cpb);
}
