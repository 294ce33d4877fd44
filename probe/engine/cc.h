/* SPDX-License-Identifier: MIT */
/* Running the C compiler: does $CC $CFLAGS accept a flag, compile a file
 * with extra flags.  Shared by cc-flag, cc-probe, frame and choose. */
#ifndef ASMCAP_CC_H
#define ASMCAP_CC_H

#include <stddef.h>

#include "retry.h"
#include "run.h"

struct cc_ctx {
	struct strv cc, cflags;     /* the compiler words and CFLAGS words */
	char *base_err;             /* stderr of the flag-free baseline compile */
	int base_done;
	struct retry trust;         /* retry.h's rule, across every flag set */
};

/* cc: NULL -> $CC, then "cc"; cflags: NULL -> $CFLAGS.  0, or -1 with err. */
int cc_init(struct cc_ctx *c, const char *cc, const char *cflags, char *err, size_t errlen);
void cc_free(struct cc_ctx *c);

/* The words of `CC CFLAGS extra... -c src -o obj`, appended to argv. */
void cc_argv(const struct cc_ctx *c, const struct strv *extra, const char *src, const char *obj,
             struct strv *argv);

/* A tiny warning-free C file (a prototyped function), written once into
 * the private temp dir: the baseline that shows the compiler works.  Its
 * path, or NULL with err. */
const char *cc_probe_file(char *err, size_t errlen);

/* Compile src to obj with CC CFLAGS extra... also -c (extra, also: NULL
 * for none).  Returns run_cmd's value. */
int cc_compile(struct cc_ctx *c, const struct strv *extra, const char *also, const char *src, const char *obj,
               struct run_result *r, char *err, size_t errlen);

/* Does the compiler accept all of `flags` together?  1 yes, 0 no (why has
 * the compiler's own line), -1 the compiler does not work at all (err is
 * the one-line reason, exit 3).  A -Wno-X is tried as -WX: gcc accepts any
 * -Wno-X silently and only complains when another diagnostic appears.  A
 * failure whose line names none of the flags (a launcher's, a wrapper's)
 * follows retry.h's rule: a `no' only when it reproduces alike. */
int cc_flags_accepted(struct cc_ctx *c, const struct strv *flags, char *why, size_t whylen,
                      char *err, size_t errlen);

/* The options of every subcommand that runs the compiler, for an
 * OPT_STRUCT with `cc' and `cflags'. */
#define CC_OPTIONS \
	OPT_TEXT("--cc", "CMD", cc, "the compiler (default $CC, then cc)"), \
	OPT_TEXT("--cflags", "FLAGS", cflags, "its flags (default $CFLAGS)")

/* The line of a compiler's stderr worth quoting: the first that says
 * "error", else the first.  Sets *len; never NULL. */
const char *cc_error_line(const char *text, size_t *len);

#endif
