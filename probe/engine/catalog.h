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
/* A CPUID bit, or (width > 0) a field from `bit` up that must be at least
 * min (an enumerated version: AVX10's in CPUID.(24H,0):EBX[7:0]). */
struct cat_cpuid { unsigned leaf, subleaf, reg /* 0 eax 1 ebx 2 ecx 3 edx */, bit, width, min; };
/* CAT_WORDS folders: "# hwcap: AT_HWCAP bit=N" / "# hwcap2: AT_HWCAP2 bit=N". */
struct cat_hwcap { unsigned char reg; /* 0 none, 1 AT_HWCAP, 2 AT_HWCAP2 */ unsigned char bit; };
/* riscv64: "# hwprobe: key=K bit=N" (riscv_hwprobe(2) key, bit of its value). */
struct cat_hwprobe { int key; /* -1: none */ unsigned bit; };
/* One "MASK VALUE" audit pattern of a fixed-width ISA, as the manual writes
 * the instruction (Thumb-2 32-bit: first halfword in the high 16 bits). */
struct cat_word { uint64_t mask, value; unsigned char len; /* bytes: 2, 4 or 6 */ };

struct feature {
	char *name, *summary, *since;
	char *audit;                    /* x86: the textual pattern list; NULL elsewhere */
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
	int nasm_none;                  /* "# nasm: none": nasm has no syntax for it */
	char *masm_body;                /* NULL: MASM reads the nasm body (masm_body_of) */
	unsigned masm_state_line;       /* state_line of the body MASM reads */
	int masm_none;                  /* "# masm: none": MASM has no syntax for it */
	char *section;                  /* "# section:" names, comma-separated, or NULL */
	char **requires; size_t nrequires;
	unsigned requires_line;         /* its header line (errors name it) */
	struct cat_cpuid cpuid[CAT_MAX_ALT]; size_t ncpuid;   /* all must be set */
	uint64_t xcr0;                  /* OS state the feature needs (0: none) */
	struct cat_bytes expect[CAT_MAX_ALT]; size_t nexpect; /* any one matches */
	int expect_nonempty;            /* "# expect: nonempty" (directive sections) */
	unsigned formats;               /* bitmask of 1u << enum obj_format; all if absent */
	/* The fixed-width catalogs (CAT_WORDS): */
	/* "# enable:" spellings, tried in order until one gives the bytes;
	 * one spelling may hold several directives, `;'-separated */
	char **enable; size_t nenable;
	/* "# as-flag:" an assembler-flag question: the compiler flag
	 * (`-Wa,-march=armv8.2-a') its run adds to the command, and the only
	 * way the body is enabled; NULL for every other feature */
	char *as_flag;
	struct cat_hwcap hwcap;
	struct cat_hwprobe hwprobe;
	char *isa;                      /* arm: "thumb" | "arm" | NULL (either) */
	/* arm "# attribute: Tag_NAME=N": the build attribute the snippet's
	 * object must record (a directive whose effect is no code byte);
	 * attr_tag 0: none (no attribute has tag 0) */
	unsigned attr_tag; uint64_t attr_value;
	struct cat_word *audit_words; size_t naudit_words;       /* "# audit:" (arm: A32) */
	struct cat_word *audit_thumb_words; size_t naudit_thumb_words; /* arm "# audit-thumb:" (T32) */
};

/* How a folder's templates write their CPU and audit keys, as its
 * architecture module says (struct arch.dialect). */
enum cat_dialect {
	CAT_WORDS,      /* MASK VALUE audit words, hwcap:/hwprobe: (also a folder
	                 * without a module) */
	CAT_OPCODES,    /* audit patterns in the SDM's opcode notation, cpuid: (x86) */
};
enum cat_dialect catalog_dialect(const char *arch);

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
const char *masm_body_of(const struct feature *f);

/* Every variable the outputs write for c's features is one no other
 * writes (nor a name asmcap keeps for itself): 0, or -1 with err naming
 * the file.  Loading checks it; a probe that adds other architectures'
 * features checks again. */
int catalog_check_vars(const struct catalog *c, char *err, size_t errlen);
const struct feature *catalog_find(const struct catalog *c, const char *name);
void catalog_free(struct catalog *c);

#endif
