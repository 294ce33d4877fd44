/* The option parser every subcommand shares (opt.h). */
#include "opt.h"

#include <stdlib.h>
#include <string.h>

void opt_init(struct opts *s, const char *cmd, const char *usage, const struct opt *table,
              int argc, char **argv)
{
	*s = (struct opts){cmd, usage, table, argc, argv, 1, 0, 0};
}

int opt_usage(const struct opts *s, const char *what, const char *arg)
{
	if (what)
		fprintf(stderr, "%s: %s%s%s%s\n", s->cmd, what, arg ? " `" : "", arg ? arg : "", arg ? "'" : "");
	fputs(s->usage, stderr);
	return 2;
}

int opt_number(const struct opts *s, const char *what, const char *val, long lo, long hi, long *out)
{
	char *end, msg[128];
	long n = strtol(val, &end, 10);
	if (*val && !*end && n >= lo && n <= hi) {
		*out = n;
		return 0;
	}
	snprintf(msg, sizeof msg, "%s %ld..%ld, not", what, lo, hi);
	return opt_usage(s, msg, val);
}

static int stop(struct opts *s, int rc)
{
	s->rc = rc;
	return OPT_STOP;
}

int opt_next(struct opts *s, const char **val)
{
	*val = NULL;
	if (s->i >= s->argc)
		return OPT_END;
	const char *a = s->argv[s->i++];
	if (!s->dashdash && !strcmp(a, "--")) {
		s->dashdash = 1;
		return opt_next(s, val);
	}
	if (s->dashdash || a[0] != '-' || !a[1]) {      /* "-" alone is a file name */
		*val = a;
		return OPT_ARG;
	}
	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		fputs(s->usage, stdout);
		return stop(s, 0);
	}
	const char *eq = strchr(a, '=');
	size_t n = eq ? (size_t)(eq - a) : strlen(a);
	const struct opt *o = s->table;
	while (o->name && (strlen(o->name) != n || strncmp(o->name, a, n)))
		o++;
	if (!o->name)
		return stop(s, opt_usage(s, "unknown option", a));
	if (!o->takes_value && eq)
		return stop(s, opt_usage(s, "this option takes no value:", a));
	if (o->takes_value && eq)
		*val = eq + 1;
	else if (o->takes_value && s->i < s->argc)
		*val = s->argv[s->i++];
	else if (o->takes_value)
		return stop(s, opt_usage(s, "missing value for", a));
	return o->id;
}
