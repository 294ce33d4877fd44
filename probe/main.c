/* asmcap: what can this toolchain really assemble?  main only picks the
 * subcommand; each lives in its own file (see cmds.h). */
#include "cmds.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	int (*fn)(int, char **);
} commands[] = {
	{"probe", cmd_probe},
	{"list", cmd_list},
	{"explain", cmd_explain},
	{"cpu", cmd_cpu},
	{"legacy", cmd_legacy},
	{"cc-flag", cmd_cc_flag},
	{"frame", cmd_frame},
	{"choose", cmd_choose},
	{"audit", cmd_audit},
};

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("asmcap %s\n", asmcap_version());
		return 0;
	}
	for (size_t i = 0; argc > 1 && i < sizeof commands / sizeof *commands; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	return cmd_probe(argc, argv);
}
