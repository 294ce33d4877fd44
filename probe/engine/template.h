/* SPDX-License-Identifier: MIT */
/* One template's text read into a struct feature (template.c), for the
 * catalog's loader (catalog.c). */
#ifndef ASMCAP_TEMPLATE_H
#define ASMCAP_TEMPLATE_H

#include "catalog.h"

/* Parse one .s template of folder arch: `name' is the file's base name
 * (the feature), path what messages name.  0, or -1 with err naming the
 * file and line (f is then empty). */
int template_parse(struct feature *f, const char *path, const char *name, const char *arch,
                   const char *text, char *err, size_t errlen);
/* The first line of body (starting at file line `line') whose directive
 * leaves the assembler changed at its end, or 0. */
unsigned template_body_state(const char *body, unsigned line, const char *arch);
/* What template_parse (and the loader) gave f, freed; f zeroed. */
void template_free(struct feature *f);

#endif
