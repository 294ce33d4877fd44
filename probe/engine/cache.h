/* SPDX-License-Identifier: MIT */
/* The probe cache (--cache FILE).  An entry is found by its key (command
 * words, flags, mode, flavour, way, feature selection, catalog hash) and
 * is valid while every file it depends on keeps its size, mtime, inode
 * change time and inode, and the command words still resolve to the same
 * programs.  Checking a hit starts no process. */
#ifndef ASMCAP_CACHE_H
#define ASMCAP_CACHE_H

#include "out.h"
#include "engine.h"
#include "opt.h"
#include "run.h"

#include <stddef.h>

/* --cache FILE for a struct with `cache': a regular file that holds
 * something else (`--cache main.c') is refused, exit 2 naming it, for the
 * cache would replace it.  A new or empty file, one asmcap wrote (even a
 * damaged one: its entries are checked) and a non-regular file (warned
 * about when used) are taken. */
int cache_option(void *cmd, const struct opts *s, const struct opt *o, const char *val);
#define OPT_CACHE OPT_ROW("--cache", OPT_KIND_CALL, OPT_AT(cache), 0, 0, cache_option, "FILE", 0, \
                         "keep verdicts in FILE; valid while the toolchain's files are unchanged")

/* Add a program and the shared libraries it names (DT_NEEDED, found
 * through its RUNPATH/RPATH and the standard directories) to deps. */
void deps_add_program(struct strv *deps, const char *path);

/* Add path when it is a regular file (an option file, not a program). */
void deps_add_file(struct strv *deps, const char *path);
/* The files a command's words make it read: with programs, each word that
 * is a program (launchers: `ccache gcc'); always the option files they
 * name (@response files and those they name, --config FILE, -specs=FILE),
 * which can change every verdict as the compiler can. */
void deps_add_words(struct strv *deps, const struct strv *words, int programs);

/* 1 and p filled (as probe_run would) on a valid hit, 0 otherwise. */
int cache_get(const char *file, const char *key, const struct probe_opts *o, struct probe *p);
/* Store p under key (temp file + rename; other entries kept).  A failure
 * only warns: the cache is an optimisation. */
void cache_put(const char *file, const char *key, const struct probe *p);

/* The key for these options (malloc'd). */
char *cache_key(const struct probe_opts *o);

/* The one format under every kind of probe: an entry is its key, its
 * kind ("probe", "cc-probe", "cc-flag"), the command words as they resolve
 * in PATH, the dependency stamps, then payload lines of its kind's own.
 * cache_lookup returns the payload of a valid entry of that kind
 * (malloc'd) or NULL; cache_store replaces the key's entry. */
char *cache_lookup(const char *file, const char *kind, const char *key, const struct strv *words);
void cache_store(const char *file, const char *kind, const char *key, const struct strv *words,
                 const struct strv *deps, const char *payload);
/* Payload fields: cache_field appends "\t" and the escaped text;
 * cache_fields splits a line in place (unescaping) into at most max. */
void cache_field(struct buf *b, const char *s);
size_t cache_fields(char *line, char **f, size_t max);

#endif
