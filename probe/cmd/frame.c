/* SPDX-License-Identifier: MIT */
/* asmcap frame FILE.c --func NAME [--variant NAME=FLAGS]...
 *
 * The measuring is engine/stackframe.c (choose measures the same way): the
 * stack frame from -fstack-usage where the compiler has it, else
 * from the prologue in the object (read by the object's architecture
 * module, arch.h); the code size from the symbol table.
 * git's block-sha1 and the kernel's aes-generic both chose code by frame
 * size once, by hand; this measures it for the compiler at hand. */
#include "stackframe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "file.h"
#include "opt.h"
#include "out.h"
#include "xalloc.h"

struct frame_cmd {
	const char *func, *cc, *cflags;
	enum out_format fmt;
	struct opt_list vars;   /* NAME=FLAGS */
};

#define OPT_STRUCT struct frame_cmd
static const struct opt frame_options[] = {
	OPT_TEXT("--func", "NAME", func, "the function whose frame is measured"),
	OPT_LIST("--variant", "NAME=FLAGS", vars, "a build of it: NAME and the flags added for it"),
	CC_OPTIONS,
	OPT_TIMEOUT("--timeout", "give up on a compiler run after SEC seconds"),
	OPT_FORMAT("--format", "text|json", fmt, OUT_JSON, "the output's form"),
	OPT_TABLE_END,
};
#undef OPT_STRUCT

/* What the options cannot say alone: 0, or 2 (reported). */
static int frame_check(const struct frame_cmd *c, const struct opts *s)
{
	for (size_t k = 0; k < c->vars.n; k++)
		if (!strchr(c->vars.v[k], '=') || c->vars.v[k][0] == '=')
			return opt_usage(s, "--variant is NAME=FLAGS, not", c->vars.v[k]);
	if (!c->func)
		return opt_usage(s, "--func names the function to measure", NULL);
	if (access(s->args[0], R_OK)) {
		fprintf(stderr, "asmcap frame: cannot read %s\n", s->args[0]);
		return 2;
	}
	return 0;
}

/* One variant's row (text) or object (json). */
static void frame_row(struct buf *b, enum out_format fmt, size_t k, const char *name, const char *flags,
                      const struct frame_result *fr)
{
	if (fmt == OUT_JSON) {
		buf_puts(b, k ? ", {\"name\": " : "{\"name\": ");
		buf_json_str(b, name);
		buf_puts(b, ", \"flags\": ");
		buf_json_str(b, flags);
		if (fr->available)
			buf_printf(b, ", \"status\": \"ok\", \"frame\": %ld, \"frame_from\": \"%s\", \"code\": %ld}",
			           fr->frame, fr->frame_from, fr->code);
		else
			buf_puts(b, ", \"status\": \"unavailable\", \"reason\": "), buf_json_str(b, fr->why),
			buf_puts(b, "}");
		return;
	}
	struct buf shown = { 0 };
	buf_puts(&shown, "");
	buf_text(&shown, name);
	if (fr->available)
		buf_printf(b, "%-14s %8ld %8ld  %-12s ", shown.s, fr->frame, fr->code, fr->frame_from);
	else
		buf_printf(b, "%-14s %8s %8s  %-12s ", shown.s, "-", "-", "unavailable");
	buf_free(&shown);
	buf_text(b, flags);
	if (!fr->available) {
		buf_puts(b, "  (");
		buf_text(b, fr->why);
		buf_puts(b, ")");
	}
	buf_puts(b, "\n");
}

static int frame_main(void *cmd, const struct opts *s)
{
	const struct frame_cmd *c = cmd;
	static const char *const only_default[] = {"default="};
	const char *const *vars = c->vars.n ? c->vars.v : only_default;
	size_t nv = c->vars.n ? c->vars.n : 1;
	const char *src = s->args[0];
	char err[1024];
	struct cc_ctx cc;
	int rc = frame_check(c, s);
	if (rc)
		return rc;
	if (cc_init(&cc, c->cc, c->cflags, err, sizeof err)) {
		fprintf(stderr, "asmcap frame: %s\n", err);
		return 2;
	}
	struct buf b = { 0 };
	int found = 0, compiled = 0, lto = 0;
	if (c->fmt == OUT_JSON)
		buf_puts(&b, "{\"function\": "), buf_json_str(&b, c->func), buf_puts(&b, ", \"variants\": [");
	else
		buf_printf(&b, "%-14s %8s %8s  %-12s %s\n", "variant", "frame", "code", "from", "flags");
	for (size_t k = 0; k < nv && !rc; k++) {
		const char *eq = strchr(vars[k], '=');
		char *name = xstrndup(vars[k], (size_t)(eq - vars[k]));
		struct strv flags = { 0 };
		struct frame_result fr;
		int m = argv_split_words(eq + 1, &flags, err, sizeof err) ? -2
		        : stackframe_measure(&cc, src, c->func, &flags, &fr, err, sizeof err);
		if (m < 0) {
			fprintf(stderr, "asmcap frame: %s\n", err);
			rc = m == -1 ? 3 : 2;
		} else
			frame_row(&b, c->fmt, k, name, eq + 1, &fr);
		found += m == 0 && fr.available;
		compiled += m == 0 && fr.compiled;
		lto += m == 0 && fr.lto;
		strv_free(&flags);
		free(name);
	}
	if (!rc && compiled && !found) {
		if (lto == compiled)
			fprintf(stderr, "asmcap frame: not machine code (LTO): cannot measure %s in %s; "
			        "a variant with -fno-lto measures its machine code\n", c->func, src);
		else
			fprintf(stderr, "asmcap frame: no function %s in %s under any variant\n", c->func, src);
		rc = 2;
	}
	if (c->fmt == OUT_JSON)
		buf_puts(&b, "]}\n");
	if (!rc)
		rc = file_output("asmcap frame", NULL, &b);
	buf_free(&b);
	cc_free(&cc);
	return rc;
}

const struct command cmd_frame = {
	"frame", {"asmcap frame", "asmcap frame FILE.c --func NAME", NULL, NULL, frame_options, 1, 1, "frame needs a FILE.c", NULL},
	sizeof(struct frame_cmd), NULL, frame_main,
};
