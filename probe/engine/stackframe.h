/* SPDX-License-Identifier: MIT */
/* Stack frame and code size of one function as a compiler builds it. */
#ifndef ASMCAP_STACKFRAME_H
#define ASMCAP_STACKFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "cc.h"

struct frame_result {
	int available;          /* 0: flags rejected, or no code for the function */
	int compiled;           /* the source compiled with these flags */
	int lto;                /* ... into LTO output, not machine code */
	char why[512];          /* when unavailable: the compiler's line */
	long frame;             /* bytes, -1 unknown */
	const char *frame_from; /* "stack-usage" or "prologue" */
	long code;              /* bytes of the function's code, -1 unknown */
};

/* Parse one -fstack-usage line: gcc "file:line:col:func\tN\tqual", clang
 * "file:line:func\tN\tqual".  1 and fills func/bytes when it parses. */
int stackframe_su_parse_line(const char *line, size_t len, char *func, size_t funclen, long *bytes);

/* Compile src with the variant's flags and measure func.  0, or -1 with
 * err (the toolchain itself failed), or -2 with err (the source does not
 * compile with flags the compiler accepts).  Flags it rejects, or an
 * object without the function, leave fr->available 0 with fr->why. */
int stackframe_measure(struct cc_ctx *c, const char *src, const char *func, const struct strv *flags,
                  struct frame_result *fr, char *err, size_t errlen);

/* Does the object at path define the symbol name?  1, 0, or -1 unreadable. */
int stackframe_object_defines(const char *path, const char *name);

/* Can this machine run the code of the object at path (arch_runs_natively)?
 * 1 yes, 0 no, -1 unreadable; what its machine is called goes to name. */
int stackframe_object_native(const char *path, char *name, size_t len);

#endif
