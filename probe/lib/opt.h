/* SPDX-License-Identifier: MIT */
/* One option parser for every subcommand.  A subcommand describes its
 * options as data (struct opt_spec: a table of what each option sets in
 * the subcommand's own struct) and command_run does the rest the same way
 * everywhere: `--opt VALUE` and `--opt=VALUE` alike, -h/--help prints the
 * subcommand's usage on stdout (exit 0), `--` ends the options (what
 * follows is data), and an unknown option, a missing or bad value, a value
 * given to a switch or one argument too many or too few is a usage error
 * (exit 2): one line naming it and where the usage is, which a build
 * system's log shows whole. */
#ifndef ASMCAP_OPT_H
#define ASMCAP_OPT_H

#include <stddef.h>
#include <stdio.h>

struct opts;

/* What an option does with its value, in the field at `at'. */
enum opt_kind {
	OPT_TEXT,       /* const char *: the value */
	OPT_SWITCH,     /* int: 1 (the option takes no value) */
	OPT_COUNT,      /* unsigned: a whole number in lo..hi */
	OPT_FORMAT,     /* enum out_format: a format's name, one of the first hi + 1 */
	OPT_LIST,       /* struct opt_list: the value appended (the option may repeat) */
	OPT_TIMEOUT,    /* no field: run_default_timeout, in seconds */
	OPT_CALL,       /* set(): anything else; it reports its own usage error */
};

struct opt {
	const char *name;       /* "--cc", "-o" */
	enum opt_kind kind;
	size_t at;              /* offsetof(the subcommand's struct, the field) */
	long lo, hi;            /* OPT_COUNT, OPT_FORMAT */
	/* OPT_CALL: 0, or the exit code after opt_usage. */
	int (*set)(void *cmd, const struct opts *s, const struct opt *o, const char *val);
};

#define OPT_TABLE_END {NULL, OPT_TEXT, 0, 0, 0, NULL}

/* --format (every format) and -o, for a struct with `fmt' and `output'. */
#define OPT_OUTPUT(type) \
	{"--format", OPT_FORMAT, offsetof(type, fmt), 0, OUT_CMAKE, NULL}, \
	{"-o", OPT_TEXT, offsetof(type, output), 0, 0, NULL}

/* The values of a repeated option, in order (pointers into argv). */
struct opt_list { const char **v; size_t n; };

enum { OPT_ANY = 1000000 };     /* max_args: no limit */

struct opt_spec {
	const char *who;            /* "asmcap cc-flag": the prefix of messages, and how to ask for help */
	const char *usage;          /* the whole usage text, ending in a newline */
	const struct opt *table;    /* ends with a NULL name */
	size_t min_args, max_args;  /* the arguments that are not options */
	const char *need;           /* the message when fewer than min_args */
	const char *before_dashdash; /* non-NULL: arguments only after `--'; the message for one before */
};

/* The parser's state, and what it collected for the subcommand. */
struct opts {
	const struct opt_spec *spec;
	int argc;
	char **argv;                /* the subcommand's, argv[0] its name */
	int i;                      /* the next argument */
	int dashdash;               /* `--` seen: every later argument is data */
	const char **args;          /* the arguments that are not options */
	size_t nargs;
};


/* A subcommand as data: its options parsed into a struct of its own that
 * starts as its defaults, then run() with that struct and the parser's
 * state (the arguments that are not options, argv, opt_usage). */
struct command {
	const char *name;               /* argv[1] that selects it */
	struct opt_spec spec;
	size_t size;                    /* its struct */
	const void *defaults;           /* its struct's starting value; NULL: all zero */
	int (*run)(void *cmd, const struct opts *s);
};

/* argv (argv[0] the subcommand's name) parsed and run: the exit code. */
int command_run(const struct command *c, int argc, char **argv);

/* A usage error, one line on stderr: "WHO: WHAT `ARG'; see `WHO --help'"
 * (ARG may be NULL).  Returns 2, the usage exit code. */
int opt_usage(const struct opts *s, const char *what, const char *arg);

#endif
