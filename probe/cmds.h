/* Subcommands.  Each is data main.c runs the same way: its options (an
 * opt_spec, opt.h) parsed into a struct of its own that starts as its
 * defaults, then run() with that struct and the parser's state (the
 * arguments that are not options, argv, opt_usage).  run returns the
 * process exit code: 0 ok, 1 a requirement failed, 2 usage or output,
 * 3 toolchain unusable, 4 out of memory.  Each lives in probe/cmd/. */
#ifndef ASMCAP_CMDS_H
#define ASMCAP_CMDS_H

#include "opt.h"

struct command {
	const char *name;               /* argv[1] that selects it */
	struct opt_spec spec;
	size_t size;                    /* its struct */
	const void *defaults;           /* its struct's starting value; NULL: all zero */
	int (*run)(void *cmd, const struct opts *s);
};

extern const struct command cmd_probe;     /* probe.c: the default */
extern const struct command cmd_list;      /* probe.c */
extern const struct command cmd_explain;   /* probe.c */
extern const struct command cmd_cpu;       /* cpu.c */
extern const struct command cmd_audit;     /* audit.c */
extern const struct command cmd_legacy;    /* legacy.c */
extern const struct command cmd_cc_flag;   /* cc-flag.c */
extern const struct command cmd_cc_probe;  /* cc-probe.c */
extern const struct command cmd_frame;     /* frame.c */
extern const struct command cmd_choose;    /* choose.c */

#endif
