/* SPDX-License-Identifier: MIT */
/* The option parser every subcommand shares (opt.h). */
#include "opt.h"
#include "out.h"
#include "run.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

int opt_usage(const struct opts *s, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s%s; see `%s --help'\n", s->spec->who, what, arg ? " `" : "", arg ? arg : "",
	        arg ? "'" : "", s->spec->who);
	return 2;
}

static int set_count(const struct opts *s, const struct opt *o, const char *val, unsigned *out)
{
	char *end, msg[128];
	long n = strtol(val, &end, 10);
	if (*val && !*end && n >= o->lo && n <= o->hi) {
		*out = (unsigned)n;
		return 0;
	}
	snprintf(msg, sizeof msg, "%s takes a count, %ld..%ld, not", o->name, o->lo, o->hi);
	return opt_usage(s, msg, val);
}

static int set_format(const struct opts *s, const struct opt *o, const char *val, enum out_format *out)
{
	enum out_format f;
	if (!out_format_parse(val, &f) && (long)f <= o->hi) {
		*out = f;
		return 0;
	}
	return opt_usage(s, o->hi == OUT_JSON ? "--format takes text or json, not" : "unknown --format", val);
}

static int set_timeout(const struct opts *s, const char *val)
{
	char *end;
	double t = strtod(val, &end);
	if (*end || !(t > 0) || t > 86400)
		return opt_usage(s, "--timeout takes seconds (> 0, at most 86400), not", val);
	run_default_timeout = t;
	return 0;
}

static void list_add(struct opt_list *l, const char *val)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = val;
}

/* The option's value stored in cmd: 0, or the usage exit code. */
static int set(const struct opts *s, const struct opt *o, void *cmd, const char *val)
{
	char *field = (char *)cmd + o->at;
	switch (o->kind) {
	case OPT_KIND_TEXT:
		*(const char **)(void *)field = val;
		return 0;
	case OPT_KIND_SWITCH:
		*(int *)(void *)field = 1;
		return 0;
	case OPT_KIND_COUNT:
		return set_count(s, o, val, (unsigned *)(void *)field);
	case OPT_KIND_FORMAT:
		return set_format(s, o, val, (enum out_format *)(void *)field);
	case OPT_KIND_LIST:
		list_add((struct opt_list *)(void *)field, val);
		return 0;
	case OPT_KIND_TIMEOUT:
		return set_timeout(s, val);
	case OPT_KIND_CALL:
		return o->set(cmd, s, o, val);
	}
	return 0;
}

/* An argument that is not an option: 0, or the usage exit code. */
static int add_arg(struct opts *s, const char *a)
{
	if (s->spec->before_dashdash && !s->dashdash)
		return opt_usage(s, s->spec->before_dashdash, a);
	if (s->nargs == s->spec->max_args)
		return opt_usage(s, "unexpected argument", a);
	s->args[s->nargs++] = a;
	return 0;
}

/* The option argument a (its value, if any, after it): 0, or the exit code. */
static int option(struct opts *s, void *cmd, const char *a)
{
	const char *eq = strchr(a, '=');
	size_t n = eq ? (size_t)(eq - a) : strlen(a);
	const struct opt *o = s->spec->table;
	while (o->name && (strlen(o->name) != n || strncmp(o->name, a, n)))
		o++;
	int takes_value = o->kind != OPT_KIND_SWITCH;
	if (!o->name)
		return opt_usage(s, "unknown option", a);
	if (!takes_value && eq)
		return opt_usage(s, "this option takes no value:", a);
	if (takes_value && !eq && s->i == s->argc)
		return opt_usage(s, "missing value for", a);
	return set(s, o, cmd, !takes_value ? NULL : eq ? eq + 1 : s->argv[s->i++]);
}

/* "--name META" (or "--name" for a switch) into b, of n bytes. */
static void opt_form(const struct opt *o, char *b, size_t n)
{
	snprintf(b, n, "%s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
}

/* Whether the hand-written synopsis names the option already (`--func NAME'). */
static int in_synopsis(const char *synopsis, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(synopsis, name); p; p = strstr(p + 1, name))
		if ((p == synopsis || p[-1] == ' ' || p[-1] == '[') && (!p[n] || p[n] == ' ' || p[n] == ']'))
			return 1;
	return 0;
}

/* The usage line's width; options wider than HELP_COLUMN have their help
 * on a line of its own. */
enum { USAGE_WIDTH = 100, HELP_COLUMN = 24 };

/* One word of the usage line, wrapped under the first option. */
static void usage_word(FILE *f, const char *w, size_t *col, size_t indent)
{
	if (*col + 1 + strlen(w) > USAGE_WIDTH) {
		fprintf(f, "\n%*s", (int)indent, "");
		*col = indent;
	} else {
		fputc(' ', f);
		(*col)++;
	}
	fputs(w, f);
	*col += strlen(w);
}

void opt_help(const struct opt_spec *spec, FILE *f)
{
	char form[128], word[160];
	size_t col = strlen("usage: ") + strlen(spec->synopsis), indent = strlen("usage: ") + strlen(spec->who) + 1;
	size_t width = 0;
	fprintf(f, "usage: %s", spec->synopsis);
	for (const struct opt *o = spec->table; o->name; o++) {
		opt_form(o, form, sizeof form);
		if (strlen(form) > width && strlen(form) <= HELP_COLUMN)
			width = strlen(form);
		if (in_synopsis(spec->synopsis, o->name))
			continue;
		snprintf(word, sizeof word, "[%s]%s", form, o->repeats ? "..." : "");
		usage_word(f, word, &col, indent);
	}
	if (spec->after)
		usage_word(f, spec->after, &col, indent);
	fprintf(f, "\n%s", spec->text ? spec->text : "");
	if (spec->table->name)
		fputs("options:\n", f);
	for (const struct opt *o = spec->table; o->name; o++) {
		opt_form(o, form, sizeof form);
		if (strlen(form) > width)
			fprintf(f, "  %s\n%*s", form, (int)width + 2, "");
		else
			fprintf(f, "  %-*s", (int)width, form);
		fprintf(f, "  %s\n", o->help);
	}
}

enum { OPT_GO = -1 };

/* Every option of argv stored into cmd (a struct the table's offsets
 * describe, holding its defaults already).  OPT_GO: run the subcommand;
 * otherwise the exit code: 0 after the help, 2 after a usage error. */
static int opt_parse(struct opts *s, const struct opt_spec *spec, void *cmd, int argc, char **argv)
{
	*s = (struct opts){spec, argc, argv, 1, 0, xcalloc((size_t)argc + 1, sizeof *s->args), 0};
	int rc = 0;
	while (!rc && s->i < argc) {
		const char *a = argv[s->i++];
		if (!s->dashdash && !strcmp(a, "--"))
			s->dashdash = 1;
		else if (s->dashdash || a[0] != '-' || !a[1])   /* "-" alone is a file name */
			rc = add_arg(s, a);
		else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			opt_help(spec, stdout);
			return 0;
		} else
			rc = option(s, cmd, a);
	}
	if (!rc && s->nargs < spec->min_args)
		rc = opt_usage(s, spec->need, NULL);
	return rc ? rc : OPT_GO;
}

/* What opt_parse allocated: s->args and every OPT_KIND_LIST of cmd. */
static void opt_free(struct opts *s, void *cmd)
{
	for (const struct opt *o = s->spec->table; o->name; o++)
		if (o->kind == OPT_KIND_LIST)
			free(((struct opt_list *)(void *)((char *)cmd + o->at))->v);
	free(s->args);
}

int opt_command_run(const struct command *c, int argc, char **argv)
{
	void *cmd = xcalloc(1, c->size);
	if (c->defaults)
		memcpy(cmd, c->defaults, c->size);
	struct opts s;
	int rc = opt_parse(&s, &c->spec, cmd, argc, argv);
	if (rc == OPT_GO)
		rc = c->run(cmd, &s);
	opt_free(&s, cmd);
	free(cmd);
	return rc;
}
