/* SPDX-License-Identifier: MIT */
/* Subcommands: each is a struct command (opt.h) that opt_command_run runs the
 * same way.  Their exit codes: 0 ok, 1 a requirement failed, 2 usage or
 * output, 3 toolchain unusable, 4 out of memory.  Each lives in
 * probe/cmd/. */
#ifndef ASMCAP_CMDS_H
#define ASMCAP_CMDS_H

#include "opt.h"

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
extern const struct command cmd_diff;      /* diff.c */

#endif
