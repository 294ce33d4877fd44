/* SPDX-License-Identifier: MIT */
/* The feature catalog: templates/<arch>/<feature>.s (+ optional .nasm, .masm),
 * compiled into the binary (build/catalog.c) or read from --templates DIR,
 * with --add-templates directories over it.  One parser serves all. */
#ifndef ASMCAP_CATALOG_H
#define ASMCAP_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#define CAT_MAX_ALT 4

struct cat_bytes { uint8_t *b; size_t n; };
struct feature;

/* A header key that not every folder has (the CPU keys, `audit:', ...):
 * its dialect's or its module's (struct cat_keys).  set reads the value v
 * (trimmed, writable) into that table's data for f (or f's generic
 * fields); 0, or -1 with why saying what is wrong (the parser adds the
 * file and line). */
struct cat_key {
	const char *key;
	int repeat;             /* may be given again (alternatives, more words) */
	int (*set)(struct feature *f, void *data, const char *key, char *v, char *why, size_t whylen);
};
/* The keys of a dialect or of one module, and the per-feature data they
 * fill, which only their owner reads. */
struct cat_keys {
	const struct cat_key *keys;     /* the last has key NULL */
	size_t size;                    /* bytes of each feature's data, zeroed */
	void (*init)(void *data);       /* NULL: zeroes are the defaults */
	void (*free)(void *data);       /* what set allocated inside data; NULL: nothing */
	/* does data say where the CPU shows the feature (arch_cpu_checks)?  NULL: never */
	int (*cpu_checks)(const void *data);
};
/* The tables one folder's templates are read with: its dialect's and its
 * module's own (arch.c: arch_catalog_keys). */
enum { CAT_KEYS_DIALECT, CAT_KEYS_MODULE, CAT_KEYS_N };

/* A number that fits in max: decimal, 0x hex or 0 octal, no sign, no
 * overflow: 0, or -1.  For the key tables' parsers. */
int cat_number(const char *v, unsigned long long max, unsigned long long *out);

struct feature {
	char *name, *summary, *since;
	char *cost;                     /* "# cost:" what losing it costs, measured (advice) */
	char *arch;                     /* its folder: a module's name */
	char *file;                     /* the template's path, as messages name it */
	int added;                      /* from an added directory (--add-templates) */
	char *body;                     /* AT&T snippet */
	unsigned body_line;             /* line of the .s file where the body starts */
	unsigned state_line;            /* line of a directive in the body that leaves the
	                                 * assembler changed for what follows (`.arch',
	                                 * `.intel_syntax', ...; 0: none): it runs alone */
	char *nasm_body;                /* NULL: no nasm form */
	unsigned nasm_state_line;       /* state_line of the nasm body (its own lines) */
	int nasm_none;                  /* "# nasm: none": nasm has no syntax for it (a key of
	                                 * the folders whose module reads nasm bodies) */
	char *masm_body;                /* NULL: MASM reads the nasm body (catalog_masm_body) */
	unsigned masm_state_line;       /* state_line of the body MASM reads */
	int masm_none;                  /* "# masm: none": MASM has no syntax for it */
	char *section;                  /* "# section:" names, comma-separated, or NULL */
	char **requires; size_t nrequires;
	unsigned requires_line;         /* its header line (errors name it) */
	struct cat_bytes expect[CAT_MAX_ALT]; size_t nexpect; /* any one matches */
	int expect_nonempty;            /* "# expect: nonempty" (directive sections) */
	unsigned formats;               /* bitmask of 1u << enum obj_format; all if absent */
	/* "# enable:" spellings, tried in order until one gives the bytes;
	 * one spelling may hold several directives, `;'-separated */
	char **enable; size_t nenable;
	/* "# as-flag:" an assembler-flag question: the compiler flag
	 * (`-Wa,-march=armv8.2-a') its run adds to the command, and the only
	 * way the body is enabled; NULL for every other feature */
	char *as_flag;
	/* The `attribute:' evidence, as the folder's module reads its key
	 * (arm: "Tag_NAME=N"): the build attribute the snippet's object must
	 * record (a directive whose effect is no code byte), checked by the
	 * module's evidence_attribute; attr_tag 0: none */
	unsigned attr_tag; uint64_t attr_value;
	/* What the keys of its dialect and of its module stored
	 * (struct cat_keys; [CAT_KEYS_DIALECT], [CAT_KEYS_MODULE]), read only
	 * by their owner; NULL where the folder has no such table */
	void *keyed[CAT_KEYS_N];
};

/* How a folder's templates write their CPU and audit keys, as its
 * architecture module says (struct arch.dialect): the keys a dialect
 * shares between modules (arch_catalog_keys), beside each module's own. */
enum cat_dialect {
	CAT_WORDS,      /* MASK VALUE audit words, hwcap:/hwprobe: (words.h; also a
	                 * folder without a module) */
	CAT_OPCODES,    /* none shared: the module's own keys say it all (x86's
	                 * opcode-notation audit:, cpuid:) */
};

struct catalog {
	struct feature *f; size_t n;    /* sorted by name */
	char hash[17];                  /* hex of a 64-bit FNV-1a over all template texts */
};

/* The built-in copy (build/catalog.c): paths like "x86_64/adx.s". */
struct catalog_file { const char *path, *text; };
extern const struct catalog_file catalog_files[];
extern const size_t catalog_nfiles;

/* The catalog hash: 64-bit FNV-1a over each text (and a separator),
 * starting from CATALOG_FNV_INIT. */
#define CATALOG_FNV_INIT 0xcbf29ce484222325ULL
uint64_t catalog_fnv(uint64_t h, const char *s);

/* Load the arch's features from the built-in copy or a directory.
 * 0, or -1 with err naming the file and line that is wrong. */
int catalog_load_builtin(struct catalog *c, const char *arch, char *err, size_t errlen);
int catalog_load_dir(struct catalog *c, const char *dir, const char *arch, char *err, size_t errlen);
/* Both layer the added directories over their base: a file named like a
 * feature there replaces it (.s, .nasm and .masm together), a new name adds one.
 * Directories come from $ASMCAP_ADD_TEMPLATES (':'-separated), then from
 * catalog_add_dir (--add-templates) in call order; later ones win. */
void catalog_add_dir(const char *dir);
/* dir ? catalog_load_dir : catalog_load_builtin. */
int catalog_load(struct catalog *c, const char *dir, const char *arch, char *err, size_t errlen);
/* The body the MASM way in assembles: the .masm file, else the nasm body
 * (register and register-indirect Intel operands read the same in MASM);
 * NULL where MASM has no syntax for it or the catalog no form. */
const char *catalog_masm_body(const struct feature *f);

/* Every variable the outputs write for c's features is one no other
 * writes (nor a name asmcap keeps for itself): 0, or -1 with err naming
 * the file.  Loading checks it; a probe that adds other architectures'
 * features checks again. */
int catalog_check_vars(const struct catalog *c, char *err, size_t errlen);
const struct feature *catalog_find(const struct catalog *c, const char *name);
void catalog_free(struct catalog *c);

#endif
