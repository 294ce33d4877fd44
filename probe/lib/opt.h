/* SPDX-License-Identifier: MIT */
/* One option parser for every subcommand.  A subcommand describes its
 * options as data (struct opt_spec: a table of what each option sets in
 * the subcommand's own struct) and opt_command_run does the rest the same way
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
	OPT_KIND_TEXT,          /* const char *: the value */
	OPT_KIND_SWITCH,        /* int: 1 (the option takes no value) */
	OPT_KIND_COUNT,         /* unsigned: a whole number in lo..hi */
	OPT_KIND_FORMAT,        /* enum out_format: a format's name, one of the first hi + 1 */
	OPT_KIND_LIST,          /* struct opt_list: the value appended (the option may repeat) */
	OPT_KIND_TIMEOUT,       /* no field: run_default_timeout, in seconds */
	OPT_KIND_CALL,          /* set(): anything else; it reports its own usage error */
};

struct opt {
	const char *name;       /* "--cc", "-o" */
	enum opt_kind kind;
	size_t at;              /* offsetof(the subcommand's struct, the field) */
	long lo, hi;            /* OPT_KIND_COUNT, OPT_KIND_FORMAT */
	/* OPT_KIND_CALL: 0, or the exit code after opt_usage. */
	int (*set)(void *cmd, const struct opts *s, const struct opt *o, const char *val);
	const char *metavar;    /* its value in the usage ("N", "text|json"); NULL for a switch */
	int repeats;            /* may be given more than once: `[--opt VALUE]...' */
	const char *help;       /* what it does, one line of --help */
};

/* The rows of a table, by what they do.  FIELD is a member of OPT_STRUCT,
 * which the file defines as its subcommand's struct before the table. */
#define OPT_ROW(name, kind, at, lo, hi, set, meta, rep, help) {name, kind, at, lo, hi, set, meta, rep, help}
#define OPT_AT(field) offsetof(OPT_STRUCT, field)
#define OPT_TEXT(name, meta, field, help) OPT_ROW(name, OPT_KIND_TEXT, OPT_AT(field), 0, 0, NULL, meta, 0, help)
#define OPT_SWITCH(name, field, help) OPT_ROW(name, OPT_KIND_SWITCH, OPT_AT(field), 0, 0, NULL, NULL, 0, help)
#define OPT_COUNT(name, meta, field, lo, hi, help) \
	OPT_ROW(name, OPT_KIND_COUNT, OPT_AT(field), lo, hi, NULL, meta, 0, help)
/* LAST: the last format it takes (OUT_JSON: text and json; OUT_CMAKE: all). */
#define OPT_FORMAT(name, meta, field, last, help) \
	OPT_ROW(name, OPT_KIND_FORMAT, OPT_AT(field), 0, last, NULL, meta, 0, help)
#define OPT_LIST(name, meta, field, help) OPT_ROW(name, OPT_KIND_LIST, OPT_AT(field), 0, 0, NULL, meta, 1, help)
#define OPT_TIMEOUT(name, help) OPT_ROW(name, OPT_KIND_TIMEOUT, 0, 0, 0, NULL, "SEC", 0, help)
#define OPT_CALL(name, meta, set, help) OPT_ROW(name, OPT_KIND_CALL, 0, 0, 0, set, meta, 0, help)
#define OPT_CALL_REPEATED(name, meta, set, help) OPT_ROW(name, OPT_KIND_CALL, 0, 0, 0, set, meta, 1, help)
#define OPT_TABLE_END OPT_ROW(NULL, OPT_KIND_TEXT, 0, 0, 0, NULL, NULL, 0, NULL)

/* --format (every format) and -o, for an OPT_STRUCT with `fmt' and `output'. */
#define OPT_OUTPUT \
	OPT_FORMAT("--format", OUT_FORMAT_NAMES, fmt, OUT_CMAKE, "the output's form"), \
	OPT_TEXT("-o", "FILE", output, "write it to FILE, not stdout")

/* The values of a repeated option, in order (pointers into argv). */
struct opt_list { const char **v; size_t n; };

enum { OPT_ANY = 1000000 };     /* max_args: no limit */

/* The usage --help prints: "usage: SYNOPSIS [--opt VALUE]... AFTER", each
 * option of the table the synopsis does not name already, wrapped; then
 * TEXT, then a line per option with its help. */
struct opt_spec {
	const char *who;            /* "asmcap cc-flag": the prefix of messages, and how to ask for help */
	const char *synopsis;       /* "asmcap frame FILE.c --func NAME": what comes before the options */
	const char *after;          /* what comes after them ("-- FLAG..."), or NULL */
	const char *text;           /* lines after the usage (what it does, exit codes), or NULL */
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

/* The usage and a line per option, as -h/--help prints them. */
void opt_help(const struct opt_spec *spec, FILE *f);

/* argv (argv[0] the subcommand's name) parsed and run: the exit code. */
int opt_command_run(const struct command *c, int argc, char **argv);

/* A usage error, one line on stderr: "WHO: WHAT `ARG'; see `WHO --help'"
 * (ARG may be NULL).  Returns 2, the usage exit code. */
int opt_usage(const struct opts *s, const char *what, const char *arg);

#endif
