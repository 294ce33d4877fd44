/* SPDX-License-Identifier: MIT */
/* The probe: assemble the catalog with one toolchain, read the object,
 * compare bytes, give every feature a verdict. */
#ifndef ASMCAP_ENGINE_H
#define ASMCAP_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "run.h"

struct arch;
struct arch_fact;

enum status { ST_YES, ST_NO, ST_BROKEN, ST_SKIPPED, ST_DISABLED, ST_UNPROBED };
const char *engine_status_name(enum status s);

struct verdict {
	enum status st;
	char *reason;           /* one line; "" for a plain yes */
	double ms;              /* wall time of the run that decided it */
	size_t shared;          /* the snippets that run held (a batch: more than 1); 0 unknown */
	int flags_blamed;       /* no, but the same toolchain without --cflags/--asflags says yes */
	unsigned spelling;      /* the `enable:' spelling its run used (index) */
	/* for explain (not cached): what decided it */
	char *cmd, *stderr_text, *source;
	uint8_t *got; size_t ngot; int have_got;
};

struct probe_opts {
	const char *way;        /* "cc", "as", "nasm" or "masm" */
	const char *cmd;        /* the command text (split into words) */
	const char *cflags, *asflags;
	char mode;              /* 'S' (assembler-with-cpp) or 's' */
	const char *flavour;    /* NULL: follow the object format */
	const char *features;   /* comma/space list, NULL: all */
	const char *templates;  /* directory, NULL: built-in */
	const char *disable;    /* --disable list (ASMCAP_DISABLE merged in) */
	unsigned jobs;          /* per-feature runs in parallel (0: CPU count) */
	int exact;              /* explain: run the build's command as is (no -v for identity) */
};

#define BUILD_MAX_MACROS 48

struct build_info {
	int known;              /* the -dM -E run worked */
	/* the macros of the modules' macros and facts (arch.h) that are defined */
	struct build_macro { const char *name; long value; } macro[BUILD_MAX_MACROS];
	size_t nmacro;
};

/* Record a defined build macro (name: a module's static string). */
void driver_build_macro_set(struct build_info *b, const char *name, long value);
/* The value of fact f in b (0 or 1 for BIT and DEFINED facts). */
long driver_build_fact(const struct build_info *b, const struct arch_fact *f);

struct probe {
	const char *way;
	const struct arch *target;      /* the objects' architecture; NULL: one asmcap has no module for */
	struct strv argv;       /* the command words */
	char *path;             /* argv[0] resolved in PATH */
	char *identity, *assembler;
	char arch[16], format[16], flavour[16];
	char mode;
	char *cflags, *asflags;
	struct build_info build;
	struct catalog cat;
	struct verdict *v;      /* one per cat.f[]: the assembler knows it (with its
	                         * `enable:` directives, when it has any) */
	struct verdict *vf;     /* one per cat.f[]: the build's flags enable it (no
	                         * directive); only for features with `enable:` */
	struct strv deps;       /* files the verdicts depend on (cache) */
	unsigned nruns;         /* assembler runs over catalog snippets (--log, ASMCAP_STATS) */
};

/* The snippet p's way in assembles for f; NULL: none for that way. */
const char *engine_way_body(const struct probe *p, const struct feature *f);

/* 0 probed; 2 usage (err says what); 3 toolchain unusable (err is the one-line reason). */
int probe_run(struct probe *p, const struct probe_opts *o, char *err, size_t errlen);
void probe_free(struct probe *p);

/* Empty p's catalog and verdicts and load arch's catalog (a module's name,
 * or a machine asmcap has none for: an empty one), plus the features of
 * other architectures --features names, to be answered `skipped'.
 * 0, or 2 with err. */
int probe_load_catalog(struct probe *p, const struct probe_opts *o, const char *arch, char *err, size_t errlen);

/* Parse a feature list ("adx,bmi2" or "adx bmi2") against a catalog:
 * sets want[i] for each named feature; -1 with err for an unknown name. */
int plan_feature_list(const struct catalog *c, const char *list, unsigned char *want,
                 const char *what, char *err, size_t errlen);

/* One line (l[0..len)) of a compiler driver's -v or -### output: when it
 * is a command (it starts with a blank and names a program), that program
 * and the libraries it loads join deps, *cc1as says whether it is clang's
 * integrated assembler, and its first word is returned (malloc'd); else
 * NULL. */
char *driver_command(const char *l, size_t len, struct strv *deps, int *cc1as);

/* `name` (no slash) looked up in PATH; a malloc'd path or NULL. */
char *driver_path_lookup(const char *name);

#endif
