/* SPDX-License-Identifier: MIT */
/* Probe results written out: caps.json, build variables, the text table
 * (the JSON and text frames for every kind: struct report_rows). */
#ifndef ASMCAP_REPORT_H
#define ASMCAP_REPORT_H

#include "out.h"
#include "engine.h"

const char *report_version(void);
/* Status yes and every `requires` usable, transitively; else 0 and
 * *missing names a feature down the requires chain that is not yes (NULL
 * if the feature itself is not). */
int report_feature_usable(const struct probe *p, size_t i, const char **missing);
void report_json(struct buf *b, const struct probe *p);

/* What differs between the kinds' JSON and text outputs (the probe's,
 * cc-probe's); the frame around it is one for every kind. */
struct report_rows {
	void *ctx;              /* the kind's, passed to each function below */
	size_t n;               /* rows: features or C probes */
	const char *kind;       /* JSON "kind" (NULL: the probe's, which has none) */
	const char *catalog;    /* the catalogs' hash */
	const char *title;      /* the text table's first column */
	const char *(*name)(void *ctx, size_t i);
	enum status (*status)(void *ctx, size_t i);
	/* JSON: the toolchain's members (and any object after it, left open);
	 * a row's members after its status */
	void (*json_head)(struct buf *b, void *ctx);
	void (*json_row)(struct buf *b, void *ctx, size_t i);
	/* text: the lines above the table; the column titles between status
	 * and reason; a row's columns after its status, and its reason */
	void (*text_head)(struct buf *b, void *ctx);
	void (*text_titles)(struct buf *b, void *ctx);
	void (*text_row)(struct buf *b, void *ctx, size_t i, int colour);
};
void report_json_rows(struct buf *b, const struct report_rows *r);
void report_text_rows(struct buf *b, const struct report_rows *r, int colour);
void report_vars(struct buf *b, enum out_format f, const struct probe *p, const char *who);
void report_text(struct buf *b, const struct probe *p, int colour);
/* What would make feature i (not yes) yes: one sentence, "Fix: ...",
 * for the advice and for --require. */
void report_fix(struct buf *b, const struct probe *p, size_t i);
/* The advice lines report_text ends with. */
void report_advice(struct buf *b, const struct probe *p);

#endif
