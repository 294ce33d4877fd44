/* SPDX-License-Identifier: MIT */
/* The C-level probe catalog: templates/<arch>/c/<name>.c, compiled into
 * the binary with the rest of the catalog (build/catalog.c).  Each file is
 * a header of `// key: value' lines and a C body that defines the function
 * asmcap_probe, whose object code must hold an instruction of the catalog
 * feature `insn:' names, and every byte sequence its `holds:' lines give
 * (inline-asm questions: the register a constraint asked for, a branch
 * resolved to its label, a callee-saved register saved for a clobber),
 * and a relocation against the symbol `reloc:' names (an asm that names a
 * C global directly). */
#ifndef ASMCAP_CCAT_H
#define ASMCAP_CCAT_H

#include <stddef.h>
#include <stdint.h>

/* The function every body defines and the probe looks for. */
#define CCAT_FUNCTION "asmcap_probe"

/* One `holds:' alternative: n bytes, each compared under its mask. */
struct ccat_seq { uint8_t v[32], m[32]; size_t n; };

/* One `holds:' line: its text and alternatives (`|'), one of which must
 * start at an instruction of the function's code. */
struct ccat_hold { char *text; struct ccat_seq alt[4]; size_t nalt; };

struct cprobe {
	char *name, *summary, *since;
	char *insn;             /* the catalog feature whose instructions (audit:) prove it, or NULL */
	struct ccat_hold *holds; size_t nholds;
	char *reloc;            /* a symbol the function's code must have a relocation against, or NULL */
	char *target;           /* __attribute__((target("..."))) string, or NULL */
	char *mflags;           /* -m flags of the NAME-m answer, or NULL */
	char *path;             /* "templates/x86_64/c/adx-intrinsic.c" */
	char *body;             /* the C source below the header */
	unsigned body_line;     /* its first line in the file */
};

struct ccat {
	struct cprobe *p; size_t n;     /* sorted by name */
	char hash[17];                  /* FNV-1a over the files, as catalog.h's */
};

/* arch's C-level probes from the built-in copy (none: an empty catalog).
 * Every insn: must be a feature of arch's catalog.  0, or -1 with err
 * naming the file and line. */
int ccat_load(struct ccat *c, const char *arch, char *err, size_t errlen);
void ccat_free(struct ccat *c);

#endif
