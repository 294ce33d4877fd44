/* SPDX-License-Identifier: MIT */
/* asmcap legacy, second table: every toolchain gate of OpenSSL 3.0's x86_64
 * perlasm as its own version rules compute it, beside the level the probe's
 * verdicts support, and one line per code path a build would lose (or emit
 * although its assembler rejects it).
 *
 * Like legacy.c this models version detectors, so version numbers are
 * compared here and nowhere else; nothing here feeds a decision of asmcap.
 *
 * The rules (OpenSSL 3.0, crypto/{bn,chacha,poly1305,sha,modes,aes,ec}/asm):
 *   GNU as  `$CC -Wa,-v -c -o /dev/null -x assembler /dev/null 2>&1`
 *           =~ /GNU assembler version ([2-9]\.[0-9]+)/ ; level = sum of ($1 >= t)
 *   nasm    win64 nasm flavour only: `nasm -v 2>&1`
 *           =~ /NASM version ([2-9]\.[0-9]+)(?:\.([0-9]+))?/ ; weighted ($1 >= t),
 *           plus a bonus when $1 == 2.11 && $2 >= 8
 *   ml64    win64 masm flavour only: `ml64 2>&1` =~ /Version ([0-9]+)\./ ;
 *           sum of ($1 >= t); rsaz-avx512.pl has no ml64 rule
 *   clang   `$CC -v 2>&1`:
 *           $avx: /((?:clang|LLVM) version|.*based on LLVM) ([0-9]+\.[0-9]+)/
 *                 -> ($2>=3.0) + ($2>3.0), at most 2 whatever the family needs
 *           $addx: /(...) ([0-9]+)\.([0-9]+)/ -> $2 + $3/100 >= 3.03
 *           $avx512ifma: /(Apple)?\s*(...) ([0-9]+)\.([0-9]+)\.([0-9]+)?/ ->
 *                 Apple: $3 + $4/100 + $5/10000 >= 10.0001, else $3 >= 7.0
 *   Each rule runs only while the level is still 0, except in rsaz-avx512.pl,
 *   whose nasm and clang rules test an unset $avx512 and so always run (the
 *   last match wins).  $shaext is the constant 1 (SHA-NI is emitted as .byte). */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "legacy.h"

enum clang_rule { CL_NONE, CL_AVX, CL_ADDX, CL_IFMA };

struct weighted { double min; int w; };

static const struct gate {
	const char *id, *files;
	struct weighted gas[5], nasm[4], ml64[3];   /* {0} ends a list */
	int nasm_bonus;                    /* added for nasm 2.11.8 and later 2.11 */
	enum clang_rule clang;
	int always;                        /* nasm and clang rules run whatever the level */
	int nlevel;
	struct { const char *path, *features; int not_win64; } lv[4];
} gates[] = {
	{ "addx", "x86_64-mont*.pl rsaz-*.pl ecp_nistz256 x25519", { {2.23, 1} }, { {2.10, 1} }, { {12, 1} }, 0,
	  CL_ADDX, 0, 1, { {"the ADCX/ADOX+MULX code", "adx bmi2", 0} } },
	{ "avx", "sha*-x86_64.pl sha*-mb aesni-sha* aesni-mb rsaz-avx2", { {2.19, 1}, {2.22, 1} },
	  { {2.09, 1}, {2.10, 1} }, { {10, 1}, {11, 1} }, 0, CL_AVX, 0, 2,
	  { {"the AVX code", "avx", 0}, {"the AVX2 code", "avx2 bmi2", 0} } },
	{ "avx-gcm", "ghash-x86_64.pl aesni-gcm-x86_64.pl", { {2.20, 1}, {2.22, 1} },
	  { {2.09, 1}, {2.10, 1} }, { {10, 1}, {11, 1} }, 0, CL_AVX, 0, 2,
	  { {"the AVX GHASH", "avx-pclmul", 0}, {"the stitched AES-NI+AVX GCM", "avx-aes avx-pclmul movbe", 0} } },
	{ "avx-chacha", "chacha-x86_64.pl", { {2.19, 1}, {2.22, 1}, {2.25, 1} },
	  { {2.09, 1}, {2.10, 1}, {2.12, 1} }, { {10, 1}, {11, 1} }, 1, CL_AVX, 0, 3,
	  { {"the XOP ChaCha20", "xop", 0}, {"the AVX2 ChaCha20", "avx2", 0},
	    {"the AVX-512 ChaCha20", "avx512f avx512vl", 0} } },
	{ "avx-poly1305", "poly1305-x86_64.pl", { {2.19, 1}, {2.22, 1}, {2.25, 1}, {2.26, 1} },
	  { {2.09, 1}, {2.10, 1}, {2.12, 2} }, { {10, 1}, {12, 1} }, 2, CL_AVX, 0, 4,
	  { {"the AVX Poly1305", "avx", 0}, {"the AVX2 Poly1305", "avx2", 0},
	    {"the AVX-512 Poly1305", "avx512f", 0}, {"the IFMA (base 2^44) Poly1305", "avx512ifma avx512vl", 1} } },
	{ "avx512ifma", "rsaz-avx512.pl", { {2.26, 1} }, { {2.12, 1} }, { {0, 0} }, 1, CL_IFMA, 1, 1,
	  { {"the AVX512-IFMA RSA (rsaz-avx512)", "avx512ifma avx512vl", 0} } },
	{ "shaext", "sha1-x86_64.pl sha512-x86_64.pl", { {0, 0} }, { {0, 0} }, { {0, 0} }, 0, CL_NONE, 0, 1,
	  { {"the SHA-NI code", "sha", 0} } },
};

int legacy_match(const char *re, const char *text, char g[][32], int n)
{
	regex_t r;
	regmatch_t m[8];
	if (n > 7 || regcomp(&r, re, REG_EXTENDED))
		return -1;
	int ok = regexec(&r, text, 8, m, 0) == 0;
	regfree(&r);
	for (int i = 1; ok && i <= n; i++) {
		size_t len = m[i].rm_so < 0 ? 0 : (size_t)(m[i].rm_eo - m[i].rm_so);
		if (len > 31)
			len = 31;
		memcpy(g[i - 1], text + (m[i].rm_so < 0 ? 0 : m[i].rm_so), len);
		g[i - 1][len] = 0;
	}
	return ok;
}

static int weigh(const struct weighted *t, double v)
{
	int lvl = 0;
	for (; t->w; t++)
		lvl += (v >= t->min) * t->w;
	return lvl;
}

/* The clang rule of kind k: its level (-1 when the pattern does not match)
 * and what it read, for the trace. */
static int clang_level(enum clang_rule k, const char *ccout, char *trace, size_t len)
{
	char g[6][32];
	if (k == CL_AVX && legacy_match("((clang|LLVM) version|[^\n]*based on LLVM) ([0-9]+\\.[0-9]+)", ccout, g, 3) == 1) {
		double v = strtod(g[2], NULL);
		int lvl = (v >= 3.0) + (v > 3.0);
		snprintf(trace, len, "clang: %s -> (>=3.0)+(>3.0) = %d", g[2], lvl);
		return lvl;
	}
	if (k == CL_ADDX && legacy_match("((clang|LLVM) version|[^\n]*based on LLVM) ([0-9]+)\\.([0-9]+)", ccout, g, 4) == 1) {
		double v = strtod(g[2], NULL) + strtod(g[3], NULL) / 100.0;
		snprintf(trace, len, "clang: %.2f %s 3.03", v, v >= 3.03 ? ">=" : "<");
		return v >= 3.03;
	}
	if (k == CL_IFMA && legacy_match("(Apple)?[[:space:]]*((clang|LLVM) version|[^\n]*based on LLVM) "
	                           "([0-9]+)\\.([0-9]+)\\.([0-9]+)?", ccout, g, 6) == 1) {
		double v = strtod(g[3], NULL) + strtod(g[4], NULL) / 100.0 + strtod(g[5], NULL) / 10000.0;
		if (*g[0]) {
			snprintf(trace, len, "Apple clang: %.4f %s 10.0001", v, v >= 10.0001 ? ">=" : "<");
			return v >= 10.0001;
		}
		snprintf(trace, len, "clang: %s %s 7.0", g[3], strtod(g[3], NULL) >= 7.0 ? ">=" : "<");
		return strtod(g[3], NULL) >= 7.0;
	}
	snprintf(trace, len, "clang: no match");
	return -1;
}

/* Append "; part" (or "part") to the trace. */
static void add(char *trace, size_t len, const char *part)
{
	size_t n = strlen(trace);
	snprintf(trace + n, len - n, "%s%s", n ? "; " : "", part);
}

enum by { BY_NONE, BY_CONSTANT, BY_GAS, BY_NASM, BY_ML64, BY_CLANG };

/* version_rule: one rule of OpenSSL's kind, the version re's one capture
 * finds in text weighed by table w; its trace part ("NAME: V -> L" or
 * "NAME: no match") added to trace.  The level, or -1 without a match. */
static int version_rule(const char *name, const char *re, const char *text, const struct weighted *w,
                        char *trace, size_t len)
{
	char v[1][32], part[160];
	int lvl = -1;
	if (legacy_match(re, text, v, 1) == 1) {
		lvl = weigh(w, strtod(v[0], NULL));
		snprintf(part, sizeof part, "%s: %s -> %d", name, v[0], lvl);
	} else
		snprintf(part, sizeof part, "%s: no match", name);
	add(trace, len, part);
	return lvl;
}

/* OpenSSL's level for gate g, which rule set it last, and the rules that
 * ran, as text. */
static int openssl_level(const struct gate *g, const struct legacy_text *t, enum by *by, char *trace, size_t len)
{
	char v[3][32], part[160];
	int lvl = 0;
	trace[0] = 0;
	*by = BY_NONE;
	if (!g->gas[0].w) {
		add(trace, len, "constant");
		*by = BY_CONSTANT;
		return 1;
	}
	int r = version_rule("gnu-as", "GNU assembler version ([2-9]\\.[0-9]+)", t->as, g->gas, trace, len);
	if (r >= 0) {
		lvl = r;
		*by = BY_GAS;
	}
	if (t->nasm && (!lvl || g->always)) {
		if (legacy_match("NASM version ([2-9]\\.[0-9]+)(\\.([0-9]+))?", t->nasm, v, 3) == 1) {
			double x = strtod(v[0], NULL);
			lvl = weigh(g->nasm, x) + (x == 2.11 && atoi(v[2]) >= 8) * g->nasm_bonus;
			*by = BY_NASM;
			snprintf(part, sizeof part, "nasm: %s%s -> %d", v[0], v[1], lvl);
		} else
			snprintf(part, sizeof part, "nasm: no match");
		add(trace, len, part);
	}
	if (t->ml64 && g->ml64[0].w && !lvl &&
	    (r = version_rule("ml64", "Version ([0-9]+)\\.", t->ml64, g->ml64, trace, len)) >= 0) {
		lvl = r;
		*by = BY_ML64;
	}
	if (!lvl || g->always) {
		int c = clang_level(g->clang, t->cc, part, sizeof part);
		if (c >= 0) {
			lvl = c;
			*by = BY_CLANG;
		}
		add(trace, len, part);
	}
	return lvl;
}

/* Every feature of the space-separated list is yes. */
static int all_yes(const char *features, legacy_status_fn st, void *ctx)
{
	char copy[128], *save;
	snprintf(copy, sizeof copy, "%s", features);
	for (char *f = strtok_r(copy, " ", &save); f; f = strtok_r(NULL, " ", &save))
		if (strcmp(st(ctx, f), "yes"))
			return 0;
	return 1;
}

/* "avx512f yes, avx512vl no" */
static void statuses(const char *features, legacy_status_fn st, void *ctx)
{
	char copy[128], *save;
	const char *sep = "";
	snprintf(copy, sizeof copy, "%s", features);
	for (char *f = strtok_r(copy, " ", &save); f; f = strtok_r(NULL, " ", &save), sep = ", ")
		printf("%s%s %s", sep, f, st(ctx, f));
}

enum { NGATE = sizeof gates / sizeof *gates };

void legacy_gates30(const struct legacy_text *t, legacy_status_fn st, void *ctx)
{
	int lvl[NGATE], truth[NGATE], n[NGATE];
	enum by by[NGATE];
	printf("\nOpenSSL 3.0 x86_64 perlasm gates (its version rules; probe: the level the verdicts support)\n");
	printf("%-13s %-8s %-6s %s\n", "gate", "openssl", "probe", "generators: rules");
	for (int i = 0; i < NGATE; i++) {
		const struct gate *g = &gates[i];
		char trace[512], a[16], b[16];
		n[i] = g->nlevel;
		while (n[i] > 0 && (t->nasm || t->ml64) && g->lv[n[i] - 1].not_win64)
			n[i]--;         /* a path the Win64 build never has */
		lvl[i] = openssl_level(g, t, &by[i], trace, sizeof trace);
		if (lvl[i] > n[i])
			lvl[i] = n[i];
		for (truth[i] = 0; truth[i] < n[i] && all_yes(g->lv[truth[i]].features, st, ctx); truth[i]++)
			;
		snprintf(a, sizeof a, "%d/%d", lvl[i], n[i]);
		snprintf(b, sizeof b, "%d/%d", truth[i], n[i]);
		printf("%-13s %-8s %-6s %s: %s\n", g->id, a, b, g->files, trace);
	}
	for (int i = 0; i < NGATE; i++) {
		const struct gate *g = &gates[i];
		for (int l = lvl[i] + 1; l <= truth[i]; l++) {
			printf("%s: loses %s (", g->id, g->lv[l - 1].path);
			statuses(g->lv[l - 1].features, st, ctx);
			printf("): OpenSSL's rules stop at %d < %d", lvl[i], l);
			if (by[i] == BY_CLANG && g->clang == CL_AVX && l > 2)
				printf(", and its clang rule ($2>=3.0)+($2>3.0) can never reach %d", l);
			printf("\n");
		}
		/* SHA-NI is emitted as .byte: no assembler can reject it. */
		for (int l = truth[i] + 1; l <= lvl[i] && by[i] != BY_CONSTANT; l++) {
			printf("%s: emits %s the assembler rejects (", g->id, g->lv[l - 1].path);
			statuses(g->lv[l - 1].features, st, ctx);
			printf("): OpenSSL's rules say %d >= %d\n", lvl[i], l);
		}
	}
}
