/* One option parser for every subcommand: `--opt VALUE` and `--opt=VALUE`
 * alike, -h/--help prints the usage on stdout (exit 0), `--` ends the
 * options (what follows is data), and an unknown option, a missing value
 * or a value given to a switch is a usage error (exit 2) naming it. */
#ifndef ASMCAP_OPT_H
#define ASMCAP_OPT_H

#include <stdio.h>

/* A table entry; the table ends with a NULL name. */
struct opt {
	const char *name;       /* "--cc", "-o" */
	int id;                 /* what opt_next returns for it (>= 0) */
	int takes_value;        /* 1: --name VALUE or --name=VALUE; 0: a switch */
};

enum { OPT_END = -1, OPT_ARG = -2, OPT_STOP = -3 };

struct opts {
	const char *cmd;        /* "asmcap cc-flag": the prefix of messages */
	const char *usage;      /* the whole usage text, ending in a newline */
	const struct opt *table;
	int argc;
	char **argv;
	int i;                  /* the next argument */
	int dashdash;           /* `--` seen: every later argument is data */
	int rc;                 /* after OPT_STOP: the exit code */
};

void opt_init(struct opts *s, const char *cmd, const char *usage, const struct opt *table,
              int argc, char **argv);

/* The next option's id with its value in *val (NULL for a switch);
 * OPT_ARG with the argument in *val; OPT_END; or OPT_STOP when the help
 * was printed (rc 0) or a usage error reported (rc 2): return s->rc. */
int opt_next(struct opts *s, const char **val);

/* val as a whole number in lo..hi into *out: 0, or a usage error ("WHAT
 * lo..hi, not `val'"), 2. */
int opt_number(const struct opts *s, const char *what, const char *val, long lo, long hi, long *out);

/* A usage error: "CMD: WHAT `ARG'" (ARG may be NULL; WHAT NULL prints
 * nothing, for a message already given) and the usage, on stderr.
 * Returns 2, the usage exit code. */
int opt_usage(const struct opts *s, const char *what, const char *arg);

#endif
