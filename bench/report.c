/* SPDX-License-Identifier: MIT */
/* The report: a table for people, JSON for machines, the same numbers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"

/* The floor of (op, contender) at num limbs in cycles: the multiplies it
 * needs at the measured issue rate; 0 when there is none. */
static double floor_of(const struct run_info *ri, enum op op, const char *name, size_t num)
{
	double mults = floor_mults(op, name, num), rate = floor_rate(ri, name);
	return mults > 0 && rate > 0 ? mults / rate : 0;
}

/* The targets: ours at least `want` times as fast as other
 * (ratio time(other) / time(ours)), or with at_most taking at most `want`
 * times other's time (ratio time(ours) / time(other)). */
struct target {
	const char *ours, *other;
	enum op op;
	double want;
	int at_most;
	unsigned bits;          /* only this size; 0: every target size */
	const char *note;       /* for the label, or NULL */
};

/* ours, other, op, want, at_most, bits, note */
static const struct target targets[] = {
	{ "adx", "ossl-api", OP_MUL, 1.10, 0, 0, NULL },
	{ "adx", "ossl-raw", OP_MUL, 1.00, 0, 0, NULL },
	{ "adx", "ossl-api", OP_EXP, 1.00, 0, 0, NULL },
	{ "adx", "gmp", OP_EXP, 1.30, 0, 0, NULL },
	{ "adx", "mulq", OP_MUL, 1.25, 0, 0, NULL },
	{ "adx", "mulq", OP_EXP, 1.25, 0, 0, NULL },
	{ "mulq", "ossl-raw-noadx", OP_MUL, 1.00, 0, 0, NULL },
	{ "mulq", "ossl-api-noadx", OP_MUL, 1.00, 0, 0, NULL },
	{ "mulq", "ossl-api-noadx", OP_EXP, 1.00, 0, 0, NULL },
	{ "c", "mulq", OP_MUL, 2.50, 1, 0, NULL },
	{ "c", "mulq", OP_EXP, 2.50, 1, 0, NULL },
	{ "ifma", "adx", OP_EXP, 1.50, 0, 0, "goal 2.0 at 4096" },
	{ "ifma", "ossl-x2", OP_EXP2, 1.00, 0, 1024, "goal 1.15" },
	{ "ifma", "ossl-api", OP_EXP2, 1.00, 0, 1024, NULL },
#ifdef BENCH_OSSL4
	{ "ifma", "ossl4-x2", OP_EXP2, 1.30, 0, 1024, "4.0.2; goal 1.5" },
	{ "ifma", "ossl4-x2", OP_EXP2, 1.30, 0, 1536, "4.0.2; goal 1.5" },
	{ "ifma", "ossl4-x2", OP_EXP2, 1.30, 0, 2048, "4.0.2; goal 1.5" },
	{ "ifma", "ossl4-api", OP_EXP, 1.00, 0, 0, "4.0.2" },
#endif
};
static const unsigned target_bits[] = { 2048, 4096 };

/* Who we compare our backends with, in report order. */
static const char *const peers[] = {
	"ossl-api", "ossl-raw", "ossl-api-noadx", "ossl-raw-noadx", "gmp", "ossl-x2",
#ifdef BENCH_OSSL4
	"ossl4-api", "ossl4-x2",	/* make bench-peers */
#endif
};
static const char *const ours[] = { "ifma", "adx", "mulq", "c" };

/* What a peer calls for each op, for the target labels. */
static const struct {
	const char *peer;
	const char *call[OP_COUNT];
} calls[] = {
	{ "ossl-api", { [OP_MUL] = "BN_mod_mul_montgomery",
			[OP_EXP] = "BN_mod_exp_mont_consttime",
			[OP_EXP2] = "two BN_mod_exp_mont_consttime" } },
	{ "ossl-raw", { [OP_MUL] = "bn_mul_mont" } },
	{ "gmp", { [OP_EXP] = "mpz_powm_sec" } },
	{ "ossl-x2", { [OP_EXP2] = "ossl_rsaz_mod_exp_avx512_x2" } },
	{ "ossl4-api", { [OP_EXP] = "BN_mod_exp_mont_consttime" } },
	{ "ossl4-x2", { [OP_EXP2] = "ossl_rsaz_mod_exp_avx512_x2" } },
};

static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* "adx mont_mul vs BN_mod_mul_montgomery", "mulq mont_mul vs bn_mul_mont,
 * ADX masked" (a -noadx peer), "adx mont_mul vs our mulq", with the note in
 * parentheses; at_most: "c mont_mul time / mulq (within 2.5x)". */
static const char *target_label(const struct target *t, char *buf,
				size_t size)
{
	const char *masked = strstr(t->other, "-noadx");
	size_t len = masked ? (size_t)(masked - t->other) : strlen(t->other);
	const char *call = NULL;
	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
		if (strlen(calls[i].peer) == len
		    && !strncmp(calls[i].peer, t->other, len))
			call = calls[i].call[t->op];
	snprintf(buf, size, "%s mont_%s ", t->ours, op_name[t->op]);
	if (t->at_most) {
		append(buf, size, "time / %s (within %gx)", t->other, t->want);
		return buf;
	}
	int our = 0;
	for (size_t i = 0; i < sizeof ours / sizeof *ours; i++)
		our |= !strcmp(ours[i], t->other);
	if (call)
		append(buf, size, "vs %s", call);
	else
		append(buf, size, "vs %s%s", our ? "our " : "", t->other);
	if (masked)
		append(buf, size, ", ADX masked");
	if (t->note)
		append(buf, size, " (%s)", t->note);
	return buf;
}

static const struct result *find(const struct result *r, size_t n,
				 unsigned bits, enum op op, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].bits == bits && r[i].op == op && !strcmp(r[i].name, name))
			return &r[i];
	return NULL;
}

static const struct result *timed(const struct result *r, size_t n,
				  unsigned bits, enum op op, const char *name)
{
	const struct result *x = find(r, n, bits, op, name);
	return x && !x->status[0] && x->med > 0 ? x : NULL;
}

/* Sizes in first-seen order. */
static size_t sizes(const struct result *r, size_t n, unsigned *out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j;
		for (j = 0; j < k && out[j] != r[i].bits; j++)
			;
		if (j == k && k < max)
			out[k++] = r[i].bits;
	}
	return k;
}

/* Every name in report order: ours, OpenSSL, OpenSSL masked, GMP. */
static size_t names(const char **out)
{
	size_t k = 0;
	for (size_t c = 0; c < ncontenders; c++) {
		out[k++] = contenders[c].name;
		if (contender_is_openssl(&contenders[c])
		    && (c + 1 == ncontenders
			|| !contender_is_openssl(&contenders[c + 1])))
			for (size_t i = 0; i < 2; i++)
				out[k++] = peers[2 + i];
	}
	return k;
}

static const char *fmt_time(char *buf, double ns)
{
	if (ns < 1e4)
		snprintf(buf, 16, "%.0f ns", ns);
	else if (ns < 1e7)
		snprintf(buf, 16, "%.1f us", ns / 1e3);
	else
		snprintf(buf, 16, "%.2f ms", ns / 1e6);
	return buf;
}

static double target_ratio(const struct target *t, const struct result *r,
			   size_t n, unsigned bits)
{
	const struct result *a = timed(r, n, bits, t->op, t->ours);
	const struct result *b = timed(r, n, bits, t->op, t->other);
	if (!a || !b)
		return 0;
	return t->at_most ? a->med / b->med : b->med / a->med;
}

static int target_met(const struct target *t, double ratio)
{
	return t->at_most ? ratio <= t->want : ratio >= t->want;
}

/* Every (target, size) row once, in order, for the table and the JSON alike;
 * v is the measured ratio, 0 when a side was not timed. */
static void each_target(const struct result *r, size_t n,
			void (*row)(const struct target *g, const char *label,
				    unsigned bits, double v, int first))
{
	int first = 1;
	char label[128];
	for (size_t t = 0; t < sizeof targets / sizeof *targets; t++)
		for (size_t b = 0; b < sizeof target_bits / sizeof *target_bits; b++) {
			const struct target *g = &targets[t];
			unsigned tb = g->bits ? g->bits : target_bits[b];
			if (g->bits && b)
				continue;
			row(g, target_label(g, label, sizeof label), tb,
			    target_ratio(g, r, n, tb), first);
			first = 0;
		}
}

static void target_text(const struct target *g, const char *label,
			unsigned tb, double v, int first)
{
	(void)first;
	printf("  %-58s %4u  ", label, tb);
	if (v <= 0)
		printf("  -    not measured\n");
	else
		printf("%5.2f  want %s %.2f  %s\n", v,
		       g->at_most ? "<=" : ">=", g->want,
		       target_met(g, v) ? "met" : "NOT met");
}

static void table_header(const struct run_info *ri)
{
	printf("montbench: core clock %.3f GHz (dependent add chain; %.3f at "
	       "the end), ", ri->ghz, ri->ghz_end);
	if (ri->cpu >= 0)
		printf("pinned to CPU %d, ", ri->cpu);
	else
		printf("not pinned, ");
	printf("%u rounds%s, seed %llu\n", ri->rounds,
	       ri->quick ? " (quick)" : "", (unsigned long long)ri->seed);
	printf("%s, ia32cap word2 %#x (MULX paths %s)", ri->openssl, ri->cap,
	       (ri->cap & OSSL_CAP_MULX) == OSSL_CAP_MULX ? "on" : "off");
	if (ri->child_ran)
		printf("; -noadx: a child with OPENSSL_ia32cap=:~0x280120, "
		       "word2 %#x", ri->cap_noadx);
	printf("\nGMP %s. Times are thread CPU time per operation: median "
	       "(min..max) of the rounds.\n", ri->gmp);
	printf("Issue rates (independent chains): VPMADD52LUQ zmm ");
	if (ri->madd_why)
		printf("%s", ri->madd_why);
	else
		printf("%.2f per cycle", ri->madd_rate);
	printf("; MULX ");
	if (ri->mulx_why)
		printf("%s", ri->mulx_why);
	else
		printf("%.2f per cycle", ri->mulx_rate);
	printf(".\nfloor: the multiplies a product needs at that rate (amm52: 4L^2/8 "
	       "VPMADD52, (3L^2+L)/8 squaring, amm52x2 twice that; others 2n^2+n MULX,\n"
	       "n(n+1)/2+n^2+n);\n"
	       "x floor: time / floor; per product: the kernel's VPMADD52 and "
	       "instructions (the generator's counts).\n");
	for (size_t c = 0; c < ncontenders; c++)
		printf("  %-8s %s%s\n", contenders[c].name, contenders[c].what,
		       contender_is_openssl(&contenders[c]) ? " (-noadx: ADX "
		       "masked)" : "");
}

/* A product's stepped counts: its multiplies (VPMADD52, else MULX, else
 * MUL) and instructions. */
static void print_steps(const struct steps *s)
{
	const char *what = s->madd ? "vpmadd52" : s->mulx ? "mulx" : "mul";
	unsigned long n = s->madd ? s->madd : s->mulx ? s->mulx : s->mulq;
	printf("  %lu %s, %lu insns (stepped)", n, what, s->insns);
}

/* One line per result at this size: times, cycles, cycles over the floor. */
static void table_times(const struct run_info *ri, const struct result *r,
			size_t n, unsigned bits)
{
	const char *order[2 * MAX_CONTENDERS];
	size_t nn = names(order), num = bits / 64;
	char t0[16], t1[16], t2[16];

	printf("\n%u bits (%zu limbs)   %-16s %10s %10s %10s %10s %8s %10s  %s\n",
	       bits, num, "", "median", "min", "max", "cycles", "x floor", "floor",
	       "per product");
	for (int op = 0; op < OP_COUNT; op++)
		for (size_t i = 0; i < nn; i++) {
			const struct result *x = find(r, n, bits, op, order[i]);
			unsigned long madd, insns;
			double fl;
			if (!x)
				continue;
			fl = floor_of(ri, op, x->name, num);
			printf("  %-7s %-24s", op_name[op], x->name);
			if (x->status[0]) {
				printf(" %s\n", x->status);
				continue;
			}
			printf(" %10s %10s %10s %10.0f", fmt_time(t0, x->med),
			       fmt_time(t1, x->min), fmt_time(t2, x->max),
			       x->med * ri->ghz);
			if (fl > 0)
				printf(" %8.2f %10s", x->med * ri->ghz / fl,
				       fmt_time(t0, fl / ri->ghz));
			if (kernel_counts(x->name, op, num, &madd, &insns))
				printf("  %lu vpmadd52, %lu insns", madd, insns);
			else if (x->stepped)
				print_steps(&x->steps);
			printf("\n");
		}
}

static void table_ratios(const struct result *r, size_t n,
			 const unsigned *bits, size_t nb)
{
	printf("\nratios: peer's median time / ours (> 1: ours is faster)\n");
	printf("  %-5s %-7s %-5s", "bits", "op", "ours");
	for (size_t p = 0; p < sizeof peers / sizeof *peers; p++)
		printf(" %15s", peers[p]);
	printf("\n");
	for (size_t b = 0; b < nb; b++)
		for (int op = 0; op < OP_COUNT; op++)
			for (size_t o = 0; o < sizeof ours / sizeof *ours; o++) {
				const struct result *x = timed(r, n, bits[b], op,
							       ours[o]);
				if (!x)
					continue;
				printf("  %-5u %-7s %-5s", bits[b], op_name[op],
				       ours[o]);
				for (size_t p = 0; p < sizeof peers / sizeof *peers; p++) {
					const struct result *y = timed(r, n, bits[b],
								       op, peers[p]);
					if (y)
						printf(" %15.3f", y->med / x->med);
					else
						printf(" %15s", "-");
				}
				printf("\n");
			}
}

void report_table(const struct run_info *ri, const struct result *r, size_t n)
{
	unsigned bits[16];
	size_t nb = sizes(r, n, bits, 16);

	table_header(ri);
	for (size_t b = 0; b < nb; b++)
		table_times(ri, r, n, bits[b]);
	table_ratios(r, n, bits, nb);
	printf("\ntargets (informational; never the exit status)\n");
	each_target(r, n, target_text);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void target_json(const struct target *g, const char *label,
			unsigned tb, double v, int first)
{
	printf("%s\n  {\"label\": ", first ? "" : ",");
	json_str(label);
	printf(", \"bits\": %u, \"ours\": \"%s\", \"other\": \"%s\", "
	       "\"op\": \"%s\", \"want\": %.2f, \"at_most\": %s, ",
	       tb, g->ours, g->other, op_name[g->op],
	       g->want, g->at_most ? "true" : "false");
	if (v > 0)
		printf("\"ratio\": %.6g, \"met\": %s}", v,
		       target_met(g, v) ? "true" : "false");
	else
		printf("\"ratio\": null, \"met\": null}");
}

/* "NAME_per_cycle": rate or null, "NAME_status": "measured" or why not */
static void json_rate(const char *name, double rate, const char *why)
{
	if (why)
		printf("\"%s_per_cycle\": null, \"%s_status\": ", name, name);
	else
		printf("\"%s_per_cycle\": %.4g, \"%s_status\": ", name, rate, name);
	json_str(why ? why : "measured");
}

/* One result as a JSON object. */
static void json_result(const struct run_info *ri, const struct result *x)
{
	double fl = floor_of(ri, x->op, x->name, x->bits / 64);
	unsigned long madd, insns;
	printf("{\"bits\": %u, \"op\": \"%s\", \"contender\": ", x->bits,
	       op_name[x->op]);
	json_str(x->name);
	if (x->status[0]) {
		printf(", \"status\": ");
		json_str(x->status);
		printf("}");
		return;
	}
	printf(", \"status\": \"timed\", \"ns\": {\"median\": %.3f, "
	       "\"min\": %.3f, \"max\": %.3f}, \"cycles\": %.1f", x->med,
	       x->min, x->max, x->med * ri->ghz);
	if (fl > 0)
		printf(", \"floor_mults\": %.6g, \"floor_cycles\": %.6g, "
		       "\"floor_ns\": %.6g, \"x_floor\": %.6g",
		       floor_mults(x->op, x->name, x->bits / 64), fl,
		       fl / ri->ghz, x->med * ri->ghz / fl);
	if (kernel_counts(x->name, x->op, x->bits / 64, &madd, &insns))
		printf(", \"per_product\": {\"vpmadd52\": %lu, \"insns\": %lu}",
		       madd, insns);
	if (x->stepped)
		printf(", \"stepped\": {\"insns\": %lu, \"mulx\": %lu, "
		       "\"mul\": %lu, \"vpmadd52\": %lu}", x->steps.insns,
		       x->steps.mulx, x->steps.mulq, x->steps.madd);
	printf("}");
}

void report_json(const struct run_info *ri, const struct result *r, size_t n)
{
	printf("{\"schema\": 1,\n \"clock\": {\"core_ghz\": %.4f, "
	       "\"core_ghz_end\": %.4f, \"cpu\": %d, "
	       "\"time\": \"thread-cputime\"},\n", ri->ghz, ri->ghz_end,
	       ri->cpu);
	printf(" \"rounds\": %u, \"quick\": %s, \"seed\": %llu,\n", ri->rounds,
	       ri->quick ? "true" : "false", (unsigned long long)ri->seed);
	printf(" \"openssl\": {\"version\": ");
	json_str(ri->openssl);
	printf(", \"ia32cap2\": \"%#x\", \"noadx_ia32cap2\": ", ri->cap);
	if (ri->child_ran)
		printf("\"%#x\"", ri->cap_noadx);
	else
		printf("null");
	printf("},\n \"issue\": {");
	json_rate("vpmadd52_zmm", ri->madd_rate, ri->madd_why);
	printf(", ");
	json_rate("mulx", ri->mulx_rate, ri->mulx_why);
	printf("},\n \"gmp\": ");
	json_str(ri->gmp);
	printf(",\n \"contenders\": {");
	for (size_t c = 0; c < ncontenders; c++) {
		printf("%s", c ? ", " : "");
		json_str(contenders[c].name);
		printf(": ");
		json_str(contenders[c].what);
	}
	printf("}");
	printf(",\n \"results\": [");
	for (size_t i = 0; i < n; i++) {
		printf("%s\n  ", i ? "," : "");
		json_result(ri, &r[i]);
	}
	printf("\n ],\n \"ratios\": [");
	int first = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t o = 0; o < sizeof ours / sizeof *ours; o++) {
			const struct result *x = &r[i];
			if (strcmp(x->name, ours[o]) || x->status[0] || x->med <= 0)
				continue;
			for (size_t p = 0; p < sizeof peers / sizeof *peers; p++) {
				const struct result *y = timed(r, n, x->bits, x->op,
							       peers[p]);
				if (!y)
					continue;
				printf("%s\n  {\"bits\": %u, \"op\": \"%s\", "
				       "\"ours\": \"%s\", \"peer\": \"%s\", "
				       "\"peer_over_ours\": %.6g}", first ? "" : ",",
				       x->bits, op_name[x->op], ours[o], peers[p],
				       y->med / x->med);
				first = 0;
			}
		}
	printf("\n ],\n \"targets\": [");
	each_target(r, n, target_json);
	printf("\n ]}\n");
}
