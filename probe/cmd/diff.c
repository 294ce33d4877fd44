/* SPDX-License-Identifier: MIT */
/* asmcap diff OLD.json NEW.json: what was usable in OLD and is not in NEW
 * (exit 1), and what was gained (printed, exit 0). */
#include "baseline.h"
#include "cmds.h"
#include "file.h"
#include "opt.h"
#include "out.h"

#include <stdio.h>

struct diff {
	enum out_format fmt;
	const char *output;
};

static const char diff_text[] =
	"  OLD and NEW: two probes (asmcap --format json) or two audits (asmcap audit --format json)\n"
	"exit: 0 nothing usable in OLD is lost in NEW (gains are printed), 1 something is,\n"
	"      2 a file cannot be read or the two cannot be compared\n";

#define OPT_STRUCT struct diff
static const struct opt diff_options[] = {
	OPT_FORMAT("--format", "text|json", fmt, OUT_JSON, "the output's form"),
	OPT_TEXT("-o", "FILE", output, "write it to FILE, not stdout"),
	OPT_TABLE_END,
};
#undef OPT_STRUCT

static int diff_main(void *cmd, const struct opts *s)
{
	const struct diff *d = cmd;
	struct caps old = {0}, now = {0};
	struct buf b = {0};
	char err[1024];
	long lost = -1;
	if (!caps_load(&old, s->args[0], err, sizeof err) && !caps_load(&now, s->args[1], err, sizeof err))
		lost = caps_diff(&b, d->fmt, &old, s->args[0], &now, s->args[1], 0, err, sizeof err);
	if (lost == -1)
		fprintf(stderr, "asmcap diff: %s\n", err);
	else if (file_output("asmcap diff", d->output, &b))
		lost = -2;
	caps_free(&old);
	caps_free(&now);
	buf_free(&b);
	return lost < 0 ? 2 : lost > 0;
}

const struct command cmd_diff = {
	"diff", {"asmcap diff", "asmcap diff OLD.json NEW.json", NULL, diff_text, diff_options, 2, 2, "diff needs OLD.json and NEW.json", NULL},
	sizeof(struct diff), NULL, diff_main,
};
