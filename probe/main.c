/* SPDX-License-Identifier: MIT */
/* asmcap: what can this toolchain really assemble?  main picks the
 * subcommand, parses its options by its table and runs it; each lives in
 * its own file (see cmds.h). */
#include "arch.h"
#include "cmds.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct command *const commands[] = {
	&cmd_probe, &cmd_list, &cmd_explain, &cmd_cpu, &cmd_legacy, &cmd_cc_flag, &cmd_cc_probe,
	&cmd_frame, &cmd_choose, &cmd_audit, &cmd_diff,
};

static int run(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("asmcap %s\n", report_version());
		return 0;
	}
	for (size_t i = 0; argc > 1 && i < sizeof commands / sizeof *commands; i++)
		if (!strcmp(argv[1], commands[i]->name))
			return opt_command_run(commands[i], argc - 1, argv + 1);
	return opt_command_run(&cmd_probe, argc, argv);
}

/* Whatever a subcommand printed must have reached stdout: a full disk is
 * a failure like a bad -o (exit 2), never a silent success.  (A closed
 * pipe ends asmcap with SIGPIPE before it gets here.)  A subcommand that
 * already failed has said why; its code stands. */
int main(int argc, char **argv)
{
	obj_use_rules(arch_obj_rules);
	int r = run(argc, argv);
	int e = fflush(stdout) ? errno : ferror(stdout) ? EIO : 0;
	if (e && r < 2) {
		fprintf(stderr, "asmcap: cannot write standard output: %s\n", strerror(e));
		r = 2;
	}
	return r;
}
