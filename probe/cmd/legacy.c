/* SPDX-License-Identifier: MIT */
/* asmcap legacy: what the version-regex ADX detection of OpenSSL's perlasm
 * (x86_64-mont.pl and friends) would conclude for a toolchain, era by era,
 * printed beside the probe's verdict, with each disagreement explained.
 *
 * This file is a model of those detectors, so it is the one place where
 * version numbers are compared; nothing here feeds a decision of asmcap.
 *
 * The rules, applied in order while $addx is still false:
 *   GNU as  `$CC -Wa,-v -c -o /dev/null -x assembler /dev/null 2>&1`
 *           =~ /GNU assembler version ([2-9]\.[0-9]+)/ -> $1 >= 2.23
 *   nasm    (win64 nasm flavour only) `nasm -v 2>&1`
 *           =~ /NASM version ([2-9]\.[0-9]+)/ -> $1 >= 2.10
 *   ml64    (win64 masm flavour only) `ml64 2>&1`
 *           =~ /Version ([0-9]+)\./ -> $1 >= 12
 *   clang   `$CC -v 2>&1` =~ /((?:^clang|LLVM) version|.*based on LLVM)
 *           ([3-9])\.([0-9]+)/ -> $2 + $3/100 >= 3.03
 *           after PR 10855 the major is ([0-9]+); after PR 12725 the
 *           alternation is (?:clang|LLVM), no anchor.
 * Perl applied them to the whole output without /m, so `^` is the start of
 * the text (POSIX ERE without REG_NEWLINE: the same) and `.` stops at a
 * newline (spelt [^\n] here, since an ERE `.` would cross it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "catalog.h"
#include "cmds.h"
#include "legacy.h"
#include "opt.h"
#include "out.h"
#include "engine.h"
#include "run.h"
#include "xalloc.h"

enum { NERA = 3 };

static const struct era {
	const char *name, *clang_re;
} eras[NERA] = {
	{ "pre-10855",  "((^clang|LLVM) version|[^\n]*based on LLVM) ([3-9])\\.([0-9]+)" },
	{ "post-10855", "((^clang|LLVM) version|[^\n]*based on LLVM) ([0-9]+)\\.([0-9]+)" },
	{ "post-12725", "((clang|LLVM) version|[^\n]*based on LLVM) ([0-9]+)\\.([0-9]+)" },
};

/* One rule's outcome: did its regex match, what number did Perl see. */
struct rule {
	int ran, matched, yes;
	double ver;
	char text[32];          /* the number Perl compared, as printed */
	char raw[32];           /* the matched "MAJOR.MINOR" (clang rule) */
};

/* `$1 >= min` for the one-number rules (GNU as, nasm, ml64); Perl numifies the
 * captured "2.40" to 2.4, as strtod does. */
static void rule_number(struct rule *ru, const char *re, const char *text, double min)
{
	char v[1][32];

	ru->ran = 1;
	ru->matched = legacy_match(re, text, v, 1) == 1;
	if (!ru->matched)
		return;
	ru->ver = strtod(v[0], NULL);
	ru->yes = ru->ver >= min;
	snprintf(ru->text, sizeof ru->text, "%s", v[0]);
}

/* The clang rule: $2 + $3/100.0 >= 3.03 ("3.1" -> 3.01, "3.10" -> 3.10). */
static void rule_clang(struct rule *ru, const char *re, const char *text)
{
	char g[4][32];

	ru->ran = 1;
	ru->matched = legacy_match(re, text, g, 4) == 1;
	if (!ru->matched)
		return;
	ru->ver = strtod(g[2], NULL) + strtod(g[3], NULL) / 100.0;
	ru->yes = ru->ver >= 3.03;
	snprintf(ru->text, sizeof ru->text, "%.2f", ru->ver);
	snprintf(ru->raw, sizeof ru->raw, "%.15s.%.15s", g[2], g[3]);
}

/* Run words + extra args; stdout then stderr (the `2>&1` of the original),
 * or NULL when the command could not run at all. */
static char *capture(const struct strv *words, const char *const *extra, char *why, size_t whylen)
{
	struct strv argv = { 0 };
	struct run_result r;
	char err[256];
	char *all = NULL;

	strv_append(&argv, words);
	for (; *extra; extra++)
		strv_push(&argv, *extra);
	if (run_cmd(argv.v, NULL, 0, &r, err, sizeof err) < 0) {
		snprintf(why, whylen, "%s", err);
		run_result_free(&r);
	} else if (r.not_found || r.timed_out || r.signal) {
		run_describe(argv.v, &r, why, whylen);
		run_result_free(&r);
	} else {
		all = xmalloc(r.outlen + r.errlen + 1);
		memcpy(all, r.out, r.outlen);
		memcpy(all + r.outlen, r.err, r.errlen);
		all[r.outlen + r.errlen] = 0;
		run_result_free(&r);
	}
	strv_free(&argv);
	return all;
}

/* The line of `text` holding `needle` (or the first line), for display. */
/* The line of text holding needle (the first line when needle is NULL
 * or absent), cut to len - 1 bytes and then escaped as the probe's text
 * output escapes toolchain text (buf_text): a terminal escape from
 * `cc -v' is shown, never sent.  Malloc'd. */
static char *line_of(const char *text, const char *needle, size_t len)
{
	const char *s = needle ? strstr(text, needle) : NULL;

	if (!s)
		s = text;
	while (s > text && s[-1] != '\n')
		s--;
	size_t n = strcspn(s, "\n");
	char *cut = xstrndup(s, n < len ? n : len - 1);
	struct buf b = {0};
	buf_puts(&b, "");
	buf_text(&b, cut);
	free(cut);
	return b.s;
}

struct probe_adx {
	char status[16], reason[256];
};

/* Every feature a gate of legacy_gates30 names. */
static const char gate_features[] =
	"adx,bmi2,avx,avx2,avx-pclmul,avx-aes,movbe,xop,avx512f,avx512vl,avx512ifma,sha";

/* The probe's verdicts for the same toolchain, exactly what `asmcap --cc
 * CMD` (or --nasm, --masm) would print.  0, or the probe's code (2 usage,
 * 3 toolchain unusable) with `why` set. */
static int probe_gates(const char *cc, const char *nasm, const char *masm, struct probe *p,
                       char *why, size_t whylen)
{
	struct probe_opts o;

	memset(p, 0, sizeof *p);
	memset(&o, 0, sizeof o);
	o.way = nasm ? "nasm" : masm ? "masm" : "cc";
	o.cmd = nasm ? nasm : masm ? masm : cc;
	o.flavour = nasm || masm ? o.way : NULL;   /* their rules are for the Win64 flavours */
	o.cflags = getenv("CFLAGS");
	o.mode = 'S';
	o.features = gate_features;
	o.disable = getenv("ASMCAP_DISABLE");
	return probe_run(p, &o, why, whylen);
}

static const char *probe_status(void *ctx, const char *name)
{
	const struct probe *p = ctx;
	const struct feature *f = catalog_find(&p->cat, name);
	return f ? engine_status_name(p->v[f - p->cat.f].st) : "absent";
}

static void adx_of(const struct probe *p, struct probe_adx *pa)
{
	const struct feature *f = catalog_find(&p->cat, "adx");
	if (f) {
		const struct verdict *v = &p->v[f - p->cat.f];
		snprintf(pa->status, sizeof pa->status, "%s", engine_status_name(v->st));
		struct buf b = {0};
		buf_puts(&b, "");
		buf_text(&b, v->reason);        /* it may quote the assembler */
		snprintf(pa->reason, sizeof pa->reason, "%s", b.s);
		buf_free(&b);
	} else {
		snprintf(pa->status, sizeof pa->status, "absent");
		snprintf(pa->reason, sizeof pa->reason, "no adx in the %s catalog", p->arch);
	}
}

/* " gnu-as: 2.40 >= 2.23", " clang: no match"; nothing for a rule that did
 * not run because an earlier one already said yes. */
static void trace(const char *name, const struct rule *ru, const char *min, const char **sep)
{
	if (!ru->ran)
		return;
	if (!ru->matched)
		printf("%s%s: no match", *sep, name);
	else
		printf("%s%s: %s %s %s", *sep, name, ru->text, ru->yes ? ">=" : "<", min);
	*sep = "; ";
}

/* Why era `e` disagrees with the probe, in one sentence. */
static void explain(int e, const struct rule *gas, const struct rule clang[NERA],
                    const struct rule *nasm, const struct rule *ml64, int legacy_yes,
                    const struct probe_adx *p, const char *ccfirst)
{
	const struct rule *c = &clang[e];

	printf("%s: ", eras[e].name);
	if (legacy_yes) {
		printf("this rule would emit ADX the assembler rejects: ");
		if (c->ran && c->yes && gas->matched)
			printf("the clang rule judged the compiler (%s >= 3.03), but the assembler it "
			       "runs is GNU as %s, which the GNU as rule had found too old",
			       c->text, gas->text);
		else if (c->ran && c->yes)
			printf("the clang rule judged the compiler (%s >= 3.03), not the assembler", c->text);
		else if (gas->yes)
			printf("GNU as %s >= 2.23 by its version", gas->text);
		else if (nasm->yes)
			printf("nasm %s >= 2.10 by its version", nasm->text);
		else
			printf("ml64 %s >= 12 by its version", ml64->text);
		printf(" (probe: %s%s%s)\n", p->status, *p->reason ? ", " : "", p->reason);
		return;
	}
	printf("this rule would drop ADX: ");
	/* Both relaxations exist because the next era's pattern matches. */
	if (e == 0 && !c->matched && clang[1].matched && strcspn(clang[1].raw, ".") > 1)
		printf("the clang major has two digits (\"%s\") and the pattern reads one, [3-9]\n",
		       clang[1].raw);
	else if (e == 0 && !c->matched && clang[1].matched)
		printf("the clang major of \"%s\" is outside [3-9]\n", clang[1].raw);
	else if (!c->matched && clang[2].matched)
		printf("\"^clang\" matches only at the start of the whole `-v` output (Perl, no /m), "
		       "which begins \"%s\"\n", ccfirst);
	else if (c->matched)
		printf("clang %s < 3.03, yet the assembler encodes ADX\n", c->text);
	else if (gas->matched)
		printf("GNU as %s < 2.23, yet the assembler encodes ADX\n", gas->text);
	else if (nasm->matched)
		printf("nasm %s < 2.10, yet it encodes ADX\n", nasm->text);
	else if (ml64->matched)
		printf("ml64 %s < 12, yet it encodes ADX\n", ml64->text);
	else
		printf("no rule recognises this toolchain's version text\n");
}

static const char legacy_text[] =
	"  what OpenSSL's version-regex ADX detection concluded, era by era, and\n"
	"  every gate of OpenSSL 3.0's x86_64 perlasm, beside the probe's verdicts\n"
	"  for the same toolchain\n";

/* One run: the toolchain's words, what it printed, what each rule made of it. */
struct legacy {
	const char *cc, *nasm, *masm;
	struct strv ccw, nasmw, masmw;
	char *asout, *ccout, *nasmout, *masmout;  /* `-Wa,-v ...`, `-v`, `nasm -v`, `ml64`: 2>&1 */
	struct rule gas, nrule, mrule, clang[NERA];
	struct probe pr;                /* the probe's verdicts on the gates' features */
	struct probe_adx p;
};

#define OPT_STRUCT struct legacy
static const struct opt legacy_options[] = {
	OPT_TEXT("--cc", "CMD", cc, "the compiler (default $CC, then cc)"),
	OPT_TEXT("--nasm", "CMD", nasm, "the Win64 nasm flavour: its version rule, and the probe through it"),
	OPT_TEXT("--masm", "CMD", masm, "the Win64 masm flavour: the ml64 rule, and the probe through it"),
	OPT_TABLE_END,
};
#undef OPT_STRUCT

/* One command as words: 0, or 2 (reported). */
static int command_words(const char *cmd, struct strv *w)
{
	char err[512] = "";
	if (argv_split_words(cmd, w, err, sizeof err) < 0 || w->n == 0) {
		fprintf(stderr, "asmcap legacy: bad command '%s': %s\n", cmd, *err ? err : "empty");
		return 2;
	}
	return 0;
}

/* The commands as words ($CC, else cc): 0, or 2 (reported). */
static int legacy_words(struct legacy *l)
{
	if (!l->cc)
		l->cc = getenv("CC");
	if (!l->cc || !*l->cc)
		l->cc = "cc";
	if (l->nasm && l->masm) {
		fprintf(stderr, "asmcap legacy: --nasm or --masm, not both (one Win64 flavour)\n");
		return 2;
	}
	if (command_words(l->cc, &l->ccw) || (l->nasm && command_words(l->nasm, &l->nasmw)) ||
	    (l->masm && command_words(l->masm, &l->masmw)))
		return 2;
	return 0;
}

/* The version texts, and every rule applied as Perl applied them: 0, or
 * 3 (a command could not run; reported). */
static int legacy_run(struct legacy *l)
{
	static const char *const as_args[] = { "-Wa,-v", "-c", "-o", "/dev/null", "-x", "assembler", "/dev/null", NULL };
	static const char *const v_args[] = { "-v", NULL }, *const no_args[] = { NULL };
	char err[512];
	if (!(l->asout = capture(&l->ccw, as_args, err, sizeof err)) ||
	    !(l->ccout = capture(&l->ccw, v_args, err, sizeof err)) ||
	    (l->nasm && !(l->nasmout = capture(&l->nasmw, v_args, err, sizeof err))) ||
	    (l->masm && !(l->masmout = capture(&l->masmw, no_args, err, sizeof err)))) {
		fprintf(stderr, "asmcap legacy: %s\n", err);
		return 3;
	}
	rule_number(&l->gas, "GNU assembler version ([2-9]\\.[0-9]+)", l->asout, 2.23);
	if (l->nasm && !l->gas.yes)
		rule_number(&l->nrule, "NASM version ([2-9]\\.[0-9]+)", l->nasmout, 2.10);
	if (l->masm && !l->gas.yes)
		rule_number(&l->mrule, "Version ([0-9]+)\\.", l->masmout, 12);
	for (int e = 0; e < NERA; e++)
		if (!l->gas.yes && !l->nrule.yes && !l->mrule.yes)
			rule_clang(&l->clang[e], eras[e].clang_re, l->ccout);
	return 0;
}

/* The table: the version lines, each era's conclusion, the probe's, and
 * why each disagreeing era disagrees. */
static void legacy_report(const struct legacy *l)
{
	char *ccv = line_of(l->ccout, " version ", 512), *ccfirst = line_of(l->ccout, NULL, 41);
	char *asv = line_of(l->asout, "GNU assembler version", 512);
	char *nasmv = l->nasm ? line_of(l->nasmout, "NASM version", 512) : NULL;
	char *masmv = l->masm ? line_of(l->masmout, "Version", 512) : NULL;
	struct buf cc = {0};
	buf_puts(&cc, "");
	buf_text(&cc, l->cc);
	printf("cc: %s\n", cc.s);
	printf("cc -v: %s\n", ccv);
	printf("as -v: %s\n", l->gas.matched ? asv : "(no \"GNU assembler version\")");
	if (nasmv)
		printf("nasm -v: %s\n", nasmv);
	if (masmv)
		printf("ml64: %s\n", masmv);
	printf("era         adx  rules\n");
	int yes[NERA];
	for (int e = 0; e < NERA; e++) {
		yes[e] = l->gas.yes || l->nrule.yes || l->mrule.yes || l->clang[e].yes;
		printf("%-11s %-4s", eras[e].name, yes[e] ? "yes" : "no");
		const char *sep = " ";
		trace("gnu-as", &l->gas, "2.23", &sep);
		trace("nasm", &l->nrule, "2.10", &sep);
		trace("ml64", &l->mrule, "12", &sep);
		trace("clang", &l->clang[e], "3.03", &sep);
		putchar('\n');
	}
	printf("%-11s %-4s %s\n", "probe", l->p.status, *l->p.reason ? l->p.reason : "assembled, bytes match");
	int probe_yes = !strcmp(l->p.status, "yes");
	for (int e = 0; e < NERA; e++)
		if (yes[e] != probe_yes)
			explain(e, &l->gas, l->clang, &l->nrule, &l->mrule, yes[e], &l->p, ccfirst);
	free(ccv), free(ccfirst), free(asv), free(nasmv), free(masmv);
	buf_free(&cc);
}

static int legacy_main(void *cmd, const struct opts *s)
{
	struct legacy *l = cmd;
	char err[512];
	(void)s;
	int rc = legacy_words(l);
	if (!rc && ((rc = probe_gates(l->cc, l->nasm, l->masm, &l->pr, err, sizeof err)) == 2 || rc == 3))
		fprintf(stderr, "asmcap legacy: the probe failed: %s\n", err);
	else if (!rc && (adx_of(&l->pr, &l->p), !(rc = legacy_run(l)))) {
		legacy_report(l);
		struct legacy_text t = { l->asout, l->ccout, l->nasmout, l->masmout };
		legacy_gates30(&t, probe_status, &l->pr);
	}
	probe_free(&l->pr);
	free(l->asout);
	free(l->ccout);
	free(l->nasmout);
	free(l->masmout);
	strv_free(&l->ccw);
	strv_free(&l->nasmw);
	strv_free(&l->masmw);
	return rc;
}

const struct command cmd_legacy = {
	"legacy", {"asmcap legacy", "asmcap legacy [--cc CMD] [--nasm CMD | --masm CMD]", NULL, legacy_text, legacy_options, 0, 0, NULL, NULL}, sizeof(struct legacy), NULL,
	legacy_main,
};
