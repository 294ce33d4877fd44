/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the whole `asmcap audit` command: readers, the
 * built-in catalog's patterns, the decoder and the symbol ranges, on one
 * input file (rewritten in place for every run); then the probe cache's
 * look at the same file as a program (its dynamic section, the libraries
 * it needs). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "arch.h"
#include "cache.h"
#include "cmds.h"
#include "run.h"

static char path[] = "/tmp/asmcap.fuzz-audit.XXXXXX";

static void remove_input(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char expect[] = "--expect", list[] = "adx,cfi", cmd[] = "audit";
	char *argv[] = { cmd, path, expect, list, NULL };

	if (fd < 0) {
		obj_use_rules(arch_obj_rules);  /* as asmcap's main does */
		if ((fd = mkstemp(path)) < 0)
			abort();
		atexit(remove_input);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	opt_command_run(&cmd_audit, 4, argv);
	struct strv deps = {0};
	deps_add_program(&deps, path);
	strv_free(&deps);
	return 0;
}
