/* SPDX-License-Identifier: MIT */
/* Object file readers: ELF (32/64, either byte order; relocatable objects,
 * executables and shared libraries), COFF (x86_64, i386, arm64, armnt),
 * Mach-O (64, and 32), and ar archives holding any of them.  Which
 * architecture a machine number means, and what its symbols and code
 * order mean (struct obj_rules), is arch.c's and the modules' business.  Every read is bounds-checked; a file
 * that does not parse gives -1 and a one-line reason, never a crash. */
#ifndef ASMCAP_OBJ_H
#define ASMCAP_OBJ_H

#include <stddef.h>
#include <stdint.h>

enum obj_format { OBJ_ELF, OBJ_COFF, OBJ_MACHO };

struct obj_section {
	char name[64];          /* Mach-O: "__TEXT,__text"; COFF long names resolved;
	                         * longer names are cut at 63 bytes */
	const uint8_t *data;    /* NULL for sections with no file bytes (bss);
	                         * code in the order the CPU fetches it where
	                         * the machine's rules say it is stored otherwise
	                         * (struct obj_rules.code_unit) */
	uint64_t size;
	uint64_t addr;          /* as recorded (0 in relocatable ELF/COFF) */
	int is_code;            /* executable / contains instructions */
};

struct obj_symbol {
	const char *name;       /* points into the file's bytes (NUL-checked); COFF
	                         * names of 8 bytes into storage owned by the obj */
	int section;            /* index into sections, -1 undefined/absolute */
	uint64_t value;         /* offset from the start of that section (addresses of
	                         * executables and Mach-O are converted) */
	uint64_t size;          /* 0 when the format does not record it */
	int is_func;            /* known to be a function (ELF STT_FUNC, COFF type 0x20) */
	int is_global;
	int is_data;            /* known not to be code (ELF STT_OBJECT/TLS/COMMON) */
	int typed;              /* the format recorded a type (ELF always; COFF when
	                         * type/class says function; Mach-O never) */
	char mapping;           /* ELF mapping symbol, as the machine's rules read
	                         * it (struct obj_rules.mapping): the letter of the
	                         * code ('a', 't', 'x', ...) or data ('d') from
	                         * here on; 0 otherwise */
	int thumb;              /* a function in the machine's other instruction
	                         * set (ARM Thumb: struct obj_rules.func_mode),
	                         * its marker bit cleared in value */
};

/* A relocation of a relocatable object (ELF REL/RELA): where it applies
 * and the symbol it names ("" for a section symbol). */
struct obj_reloc {
	int section;            /* the section it patches */
	uint64_t offset;        /* in that section */
	const char *symbol;     /* points into the file's bytes */
};

struct obj {
	enum obj_format format;
	uint32_t machine;       /* ELF e_machine, COFF machine or Mach-O cputype */
	int big_endian;
	int bits;               /* 32 or 64 */
	size_t nsections;
	struct obj_section *sections;
	size_t nsymbols;
	struct obj_symbol *symbols;
	size_t nrelocs;
	struct obj_reloc *relocs;       /* ELF only (COFF and Mach-O: none read) */
	uint8_t *owned;         /* section bytes the reader rewrote (code stored
	                         * in another order than its module reads, see
	                         * elf.c), freed by obj_free */
};

/* What an ELF object's symbols and code bytes mean is its machine's ABI's
 * business, not the reader's: it asks these rules (each hook may be
 * NULL), which the function obj_use_rules installed finds per object
 * (asmcap installs the architecture modules': arch.c).  With none, symbols
 * are read as written and code as stored. */
struct obj_rules {
	/* An untyped symbol's name: its mapping letter (obj_symbol.mapping), or 0. */
	char (*mapping)(const char *name);
	/* A function's address *value: 1 when it marks the other instruction
	 * set (obj_symbol.thumb), with *value cleared of the mark; else 0. */
	int (*func_mode)(uint64_t *value);
	/* Code of o (ELF header flags e_flags) stored in another order than
	 * its module's decoder and catalog read (big-endian ARM without BE8;
	 * big-endian Power, whose catalog is ppc64le's): the size of the units
	 * reversed in code of mapping letter m (0: before the section's first
	 * mapping symbol), 0 for none.  0 for m = 0 says o's code is in that
	 * order already: nothing is rewritten. */
	unsigned (*code_unit)(const struct obj *o, uint32_t e_flags, char m);
};
/* find(o) (o's format, machine, class and byte order read) gives the rules
 * for o, or NULL; find NULL: no rules (the default). */
void obj_use_rules(const struct obj_rules *(*find)(const struct obj *o));
/* The rules for o, or NULL (for the readers). */
const struct obj_rules *obj_rules_of(const struct obj *o);

/* Parse buf[0..len).  The obj points into buf: keep buf alive until
 * obj_free.  Returns 0, or -1 with err set ("unreadable object: ..."). */
int obj_parse(struct obj *o, const uint8_t *buf, size_t len, char *err, size_t errlen);
void obj_free(struct obj *o);

/* Name of the format as caps report it: "elf64", "elf32", "coff-x86-64",
 * "coff-i386", "coff-arm64", "coff-arm", "macho64" (and "macho32"). */
const char *obj_format_name(const struct obj *o);

/* The COFF format name for a machine the reader takes, or NULL. */
const char *obj_coff_machine_name(unsigned machine);

/* First section whose name is exactly `name`, or NULL. */
const struct obj_section *obj_section_named(const struct obj *o, const char *name);

/* First section named by one of the comma-separated `names` (a template's
 * `section:` line; blanks around each name ignored), in the order listed;
 * a Mach-O "SEG,sect" section also answers to its "sect" part, and only a
 * Mach-O one (an ELF or COFF name may hold a comma).  NULL if none.  The
 * probe and audit both ask this, so they cannot disagree on a section. */
const struct obj_section *obj_section_listed(const struct obj *o, const char *names);

/* LTO output instead of machine code: LLVM bitcode (raw, or in its
 * wrapper; no object format parses it), or an object holding GCC's GIMPLE
 * (.gnu.lto_ sections; a slim one has no code for its functions). */
int obj_is_bitcode(const uint8_t *buf, size_t len);
int obj_has_gimple(const struct obj *o);

/* First symbol named `name` (with or without a leading '_', for Mach-O), or NULL. */
const struct obj_symbol *obj_symbol_named(const struct obj *o, const char *name);

/* Where the code of s (a symbol defined in a section) ends: value + size
 * where the format records a size, else the next symbol of its section or
 * the section's end.  Callers check it against the section's size. */
uint64_t obj_symbol_end(const struct obj *o, const struct obj_symbol *s);

/* What an ELF program or shared library needs at run time, from its
 * dynamic section (found through the program headers, as the loader finds
 * it): the DT_NEEDED names (the first OBJ_NEEDED_MAX) and DT_RUNPATH, else
 * DT_RPATH, as written ($ORIGIN unexpanded).  Names point into the file. */
enum { OBJ_NEEDED_MAX = 64 };
struct obj_dynamic {
	const char *needed[OBJ_NEEDED_MAX];
	size_t nneeded;
	const char *runpath;    /* NULL when there is none */
};

/* buf[0..len) read for its dynamic section: 0 (nothing needed for a
 * relocatable object or a static program), or -1 with err set. */
int obj_elf_dynamic(const uint8_t *buf, size_t len, struct obj_dynamic *d, char *err, size_t errlen);

/* ar archives ("!<arch>\n", GNU and BSD long names).  Iterate members:
 * set *pos = 0 first; returns 1 and fills name/data/len per member, 0 at the
 * end, -1 with err on a malformed archive. */
int ar_is_archive(const uint8_t *buf, size_t len);
int ar_next(const uint8_t *buf, size_t len, size_t *pos, char *name, size_t namelen,
            const uint8_t **data, size_t *datalen, char *err, size_t errlen);

/* For the readers (obj_*.c, ar.c): shared bounds-checked helpers. */
int obj_in_bounds(size_t len, uint64_t off, uint64_t size);  /* off+size <= len, no overflow */
uint16_t obj_le16(const uint8_t *p);
uint32_t obj_le32(const uint8_t *p);
uint64_t obj_le64(const uint8_t *p);
/* Name at tab[off] within a table of tablen bytes, NUL-terminated inside it, or NULL. */
const char *obj_str(const uint8_t *tab, uint64_t tablen, uint64_t off);
int obj_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));   /* "unreadable object: ...", returns -1 */
void obj_set_name(char *dst, size_t dstlen, const char *a, size_t alen);
int obj_parse_elf(struct obj *o, const uint8_t *buf, size_t len, char *err, size_t errlen);
int obj_parse_coff(struct obj *o, const uint8_t *buf, size_t len, char *err, size_t errlen);
int obj_parse_macho(struct obj *o, const uint8_t *buf, size_t len, char *err, size_t errlen);

#endif
