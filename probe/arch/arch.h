/* SPDX-License-Identifier: MIT */
/* The architecture interface.
 *
 * The engine (probe/engine/), the outputs and the subcommands know no
 * architecture: what differs between architectures is asked of one
 * `struct arch` each, defined in its module (probe/arch/<name>.c) and
 * named once in modules.h, from which the externs, arch_all[] and the
 * usage texts' lists come.  Adding an architecture is adding one module,
 * its line in modules.h and one catalog folder (templates/<name>/); the
 * engine, outputs and CLI stay as they are
 * (tests/probe/test_arch_interface.py).
 *
 * A module says
 *  - its name, which is also its catalog folder;
 *  - how an object made for it looks (ELF e_machine and class, COFF
 *    machine, Mach-O cputype): the target is read from the object the
 *    toolchain wrote, never from the compiler's name;
 *  - the build macros worth recording (x86 __CET__, AArch64
 *    __ARM_FEATURE_BTI_DEFAULT, RISC-V __riscv_xlen, ...) and the build
 *    facts its outputs report: the preprocessor's view under the build's
 *    CFLAGS;
 *  - whether it is the machine asmcap runs on, its catalog's dialect and
 *    the byte orders of its objects;
 *  - the catalog keys its folder has of its own (struct cat_keys, beside
 *    the generic and its dialect's) and what its ELF ABI says about
 *    symbols and code order (struct obj_rules: mapping symbols, BE8);
 *  - how a snippet's directives are kept from reaching other snippets of
 *    the same assembler run (enum arch_scope);
 *  - the hooks audit, cpu and frame call (NULL: not available for this
 *    architecture; the subcommand says so).
 */
#ifndef ASMCAP_ARCH_H
#define ASMCAP_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "modules.h"
#include "obj.h"
#include "out.h"

/* How the directives of one snippet are kept out of the others. */
enum arch_scope {
	/* The catalog's snippets change no assembler state (x86). */
	ARCH_SCOPE_NONE,
	/* Each snippet sits between scope_open and scope_close, which undo
	 * whatever it switched on (RISC-V `.option push` / `.option pop`). */
	ARCH_SCOPE_PUSHPOP,
	/* Nothing undoes a directive (AArch64/ARM `.arch`, `.arch_extension`):
	 * a snippet that carries directives runs alone; snippets without
	 * directives still share one run. */
	ARCH_SCOPE_ALONE,
};

/* Byte orders of objects (struct arch.orders). */
#define ARCH_ORDER_LE 1
#define ARCH_ORDER_BE 2

/* Code state a decoder needs beside the bytes. */
#define ARCH_MODE_THUMB 1       /* ARM: T32 code (a `$t' mapping symbol), else A32 */

/* Bytes a decoder may keep beside len and word for its own audit_match. */
#define ARCH_INSN_SCRATCH 64

/* One decoded instruction. */
struct arch_insn {
	unsigned len;           /* bytes of word (an instruction longer than its
	                         * word, the decoder's return, keeps its first
	                         * word: Power ISA 3.1's 8-byte prefixed
	                         * instructions are their prefix, so the suffix
	                         * is never read as an instruction of its own) */
	uint64_t word;          /* the fixed-width and length-prefixed ISAs: the
	                         * encoding as the manuals write it, in the low
	                         * len bytes (32-bit Thumb: first halfword above
	                         * the second; a 6-byte s390x instruction: all 48
	                         * bits) */
	int mode;               /* the mode it was decoded in (set by the caller) */
	/* What the module's decoder keeps for its audit_match (x86: its
	 * struct x86_insn), opaque to everyone else.  Only the module that
	 * wrote it reads it, through one pair of typed functions that copy its
	 * struct in and out (memcpy: no aliasing of the bytes as another type)
	 * and check at compile time that it fits; no module's header reaches
	 * the generic instruction. */
	unsigned char scratch[ARCH_INSN_SCRATCH];
};

/* A fact about the build that the outputs report (JSON `build', the
 * ASMCAP_BUILD_<NAME> variables, the text's `build:' line), read from one
 * predefined macro under the build's CFLAGS.  A module lists the ones
 * that mean something for it. */
enum arch_fact_kind {
	ARCH_FACT_BIT,          /* yes when the macro's value has `mask' set */
	ARCH_FACT_DEFINED,      /* yes when the macro is defined */
	ARCH_FACT_NUMBER,       /* the macro's value (0 when undefined) */
};
struct arch_fact {
	const char *name;       /* "cet_ibt": the JSON key, ASMCAP_BUILD_CET_IBT */
	const char *macro;      /* "__CET__" */
	enum arch_fact_kind kind;
	long mask;              /* ARCH_FACT_BIT */
	const char *why;        /* the variables' comment ("__CET__ & 1"), or NULL */
	const char *label;      /* the text's name for it ("CET") */
	const char *word;       /* BIT facts sharing a label: each one's word
	                         * ("CET ibt+shstk"; "off" when none is set).
	                         * NULL: the label alone, shown when yes */
};
/* Facts of the ABI more than one module reports: __PIC__ (-fPIC 2, -fpic
 * 1; every module), ILP32 (x32, AArch64 ILP32), Mach-O and Windows. */
#define ARCH_FACT_PIC {"pic", "__PIC__", ARCH_FACT_NUMBER, 0, "__PIC__", "PIC", NULL}
#define ARCH_FACT_ILP32 {"ilp32", "__ILP32__", ARCH_FACT_DEFINED, 0, NULL, "ILP32", NULL}
#define ARCH_FACT_APPLE {"apple", "__APPLE__", ARCH_FACT_DEFINED, 0, NULL, "Apple", NULL}
#define ARCH_FACT_WIN64 {"win64", "_WIN64", ARCH_FACT_DEFINED, 0, NULL, "Win64", NULL}

/* A value the CPU reader reports beside the features (x86: XCR0). */
struct arch_cpu_state {
	char name[40];          /* ASMCAP_CPU_... */
	char value[40];
	const char *comment;
};

struct arch {
	const char *name;       /* "x86_64", "aarch64", ...; the catalog folder */
	/* what its big-endian objects are called where the name says the
	 * other order ("ppc64" beside "ppc64le"; arch_machine_name), NULL:
	 * name for both; arch_named knows it too */
	const char *be_name;
	int bits;               /* 32 or 64 */
	/* 1 in the module of the machine asmcap is built for: the module
	 * tests its predefined macro (#if defined(__aarch64__)) where it is
	 * compiled */
	int is_host;
	const struct arch *runs_too;    /* a module whose code this one's hosts run
	                                 * natively (x86_64: i386), or NULL */
	enum cat_dialect dialect;       /* how its catalog writes audit: and CPU keys */
	/* catalog: the header keys its folder has beyond the generic and its
	 * dialect's ones, and the per-feature data they fill (catalog.h);
	 * NULL: none */
	const struct cat_keys *keys;
	/* recognising its objects: 0 where the format has no such machine */
	unsigned elf_machine;
	int elf_any_class;      /* ELF32 objects too (x32 and AArch64 ILP32 hold
	                         * 64-bit code) */
	unsigned orders;        /* the objects' byte orders it reads (ARCH_ORDER_*):
	                         * an object of another order is not its own */
	unsigned coff_machine;
	uint32_t macho_cputype;
	/* the build macros worth recording, NULL-terminated */
	const char *const *macros;
	/* the build facts its outputs report, in their order; name NULL ends */
	const struct arch_fact *facts;
	/* directives' reach (see enum arch_scope); PUSHPOP's two lines */
	enum arch_scope scope;
	const char *scope_open, *scope_close;

	/* audit.  min_insn: bytes skipped over something that does not decode.
	 * audit_compile turns a feature's `audit:` patterns into *pats (NULL
	 * is fine when audit_match reads the feature itself); 0, or -1 with
	 * err naming the pattern.  decode: the instruction at p[0..n) in
	 * `mode` (x86: 32 or 64 bits; ARM: ARCH_MODE_THUMB or 0), its length,
	 * 0 when it does not decode (or its length with in->len 0 when the
	 * encoding gives a length the decoder cannot read: RISC-V's 48- and
	 * 64-bit formats, skipped whole).  audit_match: 1 when in is one of f's
	 * instructions. */
	unsigned min_insn;
	int (*audit_compile)(const struct feature *f, void **pats, char *err, size_t errlen);
	void (*audit_free)(void *pats);
	unsigned (*decode)(const uint8_t *p, size_t n, int mode, struct arch_insn *in);
	int (*audit_match)(const struct feature *f, const void *pats, const struct arch_insn *in,
	                   const uint8_t *bytes);

	/* probe: an instruction the build's own assembler flags put into a
	 * snippet's code at p[0..n) (x86: GNU as's LVI lfence and ret guard,
	 * branch-alignment nops, segment-prefix padding): its length, *what
	 * naming it, or 0.  bits: 32 or 64.  NULL: the module knows none, and
	 * a snippet's bytes must be exactly the expected ones. */
	unsigned (*inserted)(const uint8_t *p, size_t n, int bits, const char **what);
	/* probe: the `attribute:' evidence (struct feature.attr_tag): does o
	 * record build attribute tag = value?  1 yes; 0 another value or none;
	 * -1 the attributes do not parse; why says which.  NULL: none. */
	int (*evidence_attribute)(const struct obj *o, unsigned tag, uint64_t value, struct buf *why);

	/* cpu: can this CPU and OS run f?  1 yes, 0 no (why says what is
	 * missing), -1 the host cannot tell.  cpu_state: extra values for
	 * the report; how many it filled (at most 4). */
	int (*cpu_runs)(const struct feature *f, struct buf *why);
	size_t (*cpu_state)(struct arch_cpu_state *s);

	/* frame: the stack bytes the prologue of code[0..len) sets up, or -1
	 * when it does not read (used where -fstack-usage is unavailable).
	 * The fixed-width modules use words_frame (words.h) with sp_down:
	 * how far one decoded word moves sp down (negative: up). */
	long (*prologue_frame)(const struct arch *a, const uint8_t *code, size_t len, int mode);
	long (*sp_down)(uint64_t word, unsigned len, int mode);

	/* objects: what its ELF ABI says about symbols and code order
	 * (mapping symbols, the Thumb bit, BE8; obj.h), asked by the ELF
	 * reader through arch_obj_rules.  NULL: nothing. */
	const struct obj_rules *obj_rules;

	/* audit: the GNU property (.note.gnu.property) holding the protections
	 * an ELF object is marked for, and its bits' names from bit 0 (0, NULL:
	 * none for this architecture). */
	uint32_t gnu_property;
	const char *const *gnu_property_bits;
};

/* Every architecture asmcap knows, NULL-terminated (at most ARCH_MAX). */
#define ARCH_MAX 16
extern const struct arch *const arch_all[];

/* buf holding before, the modules' names ("x86_64, i386, ... or riscv64")
 * and after (truncated to len). */
const char *arch_names(char *buf, size_t len, const char *before, const char *after);
/* The key tables of catalog folder arch (struct cat_keys): t[CAT_KEYS_DIALECT]
 * its dialect's (CAT_WORDS: words.h's, also for a folder without a
 * module), t[CAT_KEYS_MODULE] its module's own; NULL where there is none. */
void arch_catalog_keys(const char *arch, const struct cat_keys *t[CAT_KEYS_N]);
/* What table t's keys hold for f, when f's folder is read with t; else NULL
 * (how a dialect or module reaches its own data). */
const void *arch_keyed(const struct feature *f, const struct cat_keys *t);
/* The module called name (or be_name), or NULL. */
const struct arch *arch_named(const char *name);
/* The module whose objects look like o, or NULL. */
const struct arch *arch_of_obj(const struct obj *o);
/* The ELF rules of o's machine (struct arch.obj_rules: the first module
 * of its e_machine that has some, whatever the class and byte order), or
 * NULL; what asmcap's start gives obj_use_rules. */
const struct obj_rules *arch_obj_rules(const struct obj *o);
/* The module of the machine asmcap itself runs on, or NULL. */
const struct arch *arch_host(void);

/* What this CPU and OS can run, asked of the host architecture's CPU
 * reader: CPUID bits and XCR0 state on x86, AT_HWCAP/AT_HWCAP2 and hwprobe
 * elsewhere (the build-time answer is the probe's; this is the run-time
 * one).  1 runs, 0 does not (why says which bit or state is missing), -1
 * cannot tell: the feature is another architecture's, or the kernel does
 * not say (no hwprobe).  An x86 directive (no cpuid lines) always runs. */
int arch_cpu_runs(const struct feature *f, struct buf *why);

/* Does the catalog say where the CPU shows f (cpuid:, hwcap:, hwprobe:)?
 * Directives have nothing for the CPU to check. */
int arch_cpu_checks(const struct feature *f);
/* Can this machine run o's code without an emulator?  Its architecture
 * (x86_64 hosts run i386 code too) in the host's object format; exec
 * still has the last word (a kernel without IA32 emulation). */
int arch_runs_natively(const struct obj *o);
/* What o's machine is called: the module's name (its be_name for a
 * big-endian object), else a common name
 * ("ppc64le", "s390x", "mips", ...), else "machine N". */
const char *arch_machine_name(const struct obj *o, char *buf, size_t len);

/* The module macro string equal to name (the JSON's `macros'), or NULL. */
const char *arch_macro_named(const char *name);
/* A string equal to name from some module's macros or facts (build_info
 * keeps these), or NULL. */
const char *arch_build_macro_named(const char *name);
/* The facts a's outputs report; a NULL a (a machine without a module)
 * reports ARCH_FACT_PIC alone. */
const struct arch_fact *arch_facts(const struct arch *a);

/* The modules (probe/arch/<name>.c), listed in modules.h. */
ARCH_MODULES(ARCH_EXTERN, )

#endif
