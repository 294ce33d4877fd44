/* SPDX-License-Identifier: MIT */
/* Proves the generated Win64 unwind data (.pdata/.xdata) by unwinding
 * through a fault.  Each kernel is called by wu_call (wucall.S) with every
 * callee-saved register holding a sentinel and one operand placed so that
 * its last limb lies on a no-access page: the kernel faults in the middle
 * of its body.  A vectored exception handler finds the kernel's
 * RUNTIME_FUNCTION (RtlLookupFunctionEntry), unwinds one frame
 * (RtlVirtualUnwind) and checks that the result is wu_call's frame: the
 * return address wu_call_ret, the stack pointer after the call, and rbx,
 * rbp, rdi, rsi, r12-r15, xmm6-xmm15 as the caller set them.  It then
 * resumes wu_call from that context, as if the kernel had returned, and
 * wu_call records the registers the unwinder restored.
 *
 * Prints one line per case; exit 0 when every case passed, 1 otherwise. */
#include <windows.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mont-kernels.h"

struct wu_call {
	void *fn;
	uint64_t arg[6];
	uint64_t gpr_in[8];             /* rbx rbp rdi rsi r12 r13 r14 r15 */
	struct xmm { uint64_t lo, hi; } xmm_in[10];   /* xmm6-xmm15 (8-byte aligned) */
	uint64_t gpr_out[8];
	struct xmm xmm_out[10];
};
_Static_assert(offsetof(struct wu_call, gpr_in) == 56, "wucall.S layout");
_Static_assert(offsetof(struct wu_call, xmm_in) == 120, "wucall.S layout");
_Static_assert(offsetof(struct wu_call, gpr_out) == 280, "wucall.S layout");
_Static_assert(offsetof(struct wu_call, xmm_out) == 344, "wucall.S layout");

void wu_call(struct wu_call *c);
void wu_call_ret(void);

static const char *const gpr_name[8] = {"rbx", "rbp", "rdi", "rsi", "r12", "r13", "r14", "r15"};

/* What the handler saw for the case in progress. */
static struct {
	void *kernel;                   /* the function that must fault */
	const struct wu_call *call;
	int faulted;
	char why[256];                  /* empty: the unwind was right */
} cur;

static void why(const char *fmt, const char *what, unsigned long long a, unsigned long long b)
{
	if (!cur.why[0])
		snprintf(cur.why, sizeof cur.why, fmt, what, a, b);
}

static void check_regs(const CONTEXT *u)
{
	const DWORD64 got[8] = {u->Rbx, u->Rbp, u->Rdi, u->Rsi, u->R12, u->R13, u->R14, u->R15};
	for (int i = 0; i < 8; i++)
		if (got[i] != cur.call->gpr_in[i])
			why("unwound %s is %#llx, the caller's %#llx", gpr_name[i], got[i],
			    cur.call->gpr_in[i]);
	const M128A *x = &u->Xmm6;
	for (int i = 0; i < 10; i++)
		if (x[i].Low != cur.call->xmm_in[i].lo || (uint64_t)x[i].High != cur.call->xmm_in[i].hi) {
			char name[8];
			snprintf(name, sizeof name, "xmm%d", 6 + i);
			why("unwound %s is %#llx..., the caller's %#llx...", name, x[i].Low,
			    cur.call->xmm_in[i].lo);
		}
}

static LONG CALLBACK on_fault(EXCEPTION_POINTERS *ep)
{
	CONTEXT *c = ep->ContextRecord;
	if (ep->ExceptionRecord->ExceptionCode != EXCEPTION_ACCESS_VIOLATION || !cur.kernel)
		return EXCEPTION_CONTINUE_SEARCH;
	DWORD64 base = 0;
	PRUNTIME_FUNCTION fe = RtlLookupFunctionEntry(c->Rip, &base, NULL);
	if (!fe) {
		why("%s: no RUNTIME_FUNCTION covers the fault at %#llx%.0llx", "lookup", c->Rip, 0);
		ExitProcess(1);         /* nothing to unwind with: cannot resume */
	}
	if (base + fe->BeginAddress != (DWORD64)(uintptr_t)cur.kernel)
		why("%s: the fault at %#llx is not in the kernel (%#llx)", "lookup", c->Rip,
		    (unsigned long long)(uintptr_t)cur.kernel);
	/* Mid-body: past the prologue the unwind codes describe. */
	const uint8_t *info = (const uint8_t *)(base + fe->UnwindData);
	if (c->Rip - (base + fe->BeginAddress) < info[1])
		why("%s: fault at offset %llu, inside the %llu-byte prologue", "fault",
		    c->Rip - (base + fe->BeginAddress), info[1]);
	CONTEXT u = *c;
	PVOID data;
	DWORD64 frame;
	RtlVirtualUnwind(UNW_FLAG_NHANDLER, base, c->Rip, fe, &u, &data, &frame, NULL);
	if (u.Rip != (DWORD64)(uintptr_t)wu_call_ret) {
		why("%s: unwound to %#llx, not the caller's return address %#llx", "unwind", u.Rip,
		    (unsigned long long)(uintptr_t)wu_call_ret);
		printf("FAIL %s\n", cur.why);
		fflush(stdout);
		ExitProcess(1);         /* resuming there would run anything */
	}
	check_regs(&u);
	cur.faulted = 1;
	*c = u;
	return EXCEPTION_CONTINUE_EXECUTION;
}

/* Deterministic operands: n odd with its top bit set, a, b < n. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	return *s;
}

static int call_and_check(const char *name, void *k, struct wu_call *c, const char *label, uint64_t *s,
                          int fault);

/* One case: kernel k (mul when is_mul) with operand `which` (0 a, 1 b, 2 n;
 * sqr has a and n) ending on the no-access page. 1 when it passed. */
static int run_case(const char *name, void *k, int is_mul, int which, size_t num, uint8_t *guard)
{
	static uint64_t a[64], b[64], n[64], r[64];
	uint64_t s = 0x9e3779b97f4a7c15u ^ num ^ (uint64_t)which << 8;
	for (size_t i = 0; i < num; i++)
		n[i] = next(&s), a[i] = next(&s) >> 1, b[i] = next(&s) >> 1;
	n[0] |= 1, n[num - 1] |= 1ull << 63;
	a[num - 1] &= ~(1ull << 63), b[num - 1] &= ~(1ull << 63);
	/* The operand's first num-1 limbs end where the guard page begins. */
	uint64_t *src[3] = {a, b, n};
	uint64_t *moved = (uint64_t *)(guard - 8 * (num - 1));
	memcpy(moved, src[which], 8 * (num - 1));
	uint64_t *op[3] = {a, b, n};
	op[which] = moved;
	uint64_t n0 = 1;                /* any value: the kernel faults before it matters */

	struct wu_call c = {.fn = k};
	if (is_mul) {
		uint64_t args[6] = {(uintptr_t)r, (uintptr_t)op[0], (uintptr_t)op[1], (uintptr_t)op[2], n0, num};
		memcpy(c.arg, args, sizeof args);
	} else {
		uint64_t args[5] = {(uintptr_t)r, (uintptr_t)op[0], (uintptr_t)op[2], n0, num};
		memcpy(c.arg, args, sizeof args);
	}
	static const char *const opname[3] = {"a", "b", "n"};
	char label[64];
	snprintf(label, sizeof label, "num=%zu operand %s", num, opname[which]);
	return call_and_check(name, k, &c, label, &s, 1);
}

/* Call c->fn through wu_call with sentinels in every callee-saved
 * register, expecting the fault (or, fault 0, a return), and print the
 * case's line. 1 when passed. */
static int call_and_check(const char *name, void *k, struct wu_call *c, const char *label, uint64_t *s,
                          int fault)
{
	for (int i = 0; i < 8; i++)
		c->gpr_in[i] = 0x5a00000000000000u | (uint64_t)(i + 1) << 48 | next(s) >> 16;
	for (int i = 0; i < 10; i++)
		c->xmm_in[i].lo = next(s), c->xmm_in[i].hi = next(s);

	memset(&cur, 0, sizeof cur);
	cur.kernel = k, cur.call = c;
	wu_call(c);
	cur.kernel = NULL;
	if (fault && !cur.faulted)
		why("%s: the kernel returned without touching the no-access page%.0llx%.0llx", "fault", 0, 0);
	if (!fault && cur.faulted)
		why("%s: the kernel faulted%.0llx%.0llx", "return", 0, 0);
	for (int i = 0; i < 8; i++)
		if (c->gpr_out[i] != c->gpr_in[i])
			why("after resuming, %s is %#llx, the caller's %#llx", gpr_name[i], c->gpr_out[i],
			    c->gpr_in[i]);
	for (int i = 0; i < 10; i++)
		if (memcmp(&c->xmm_out[i], &c->xmm_in[i], sizeof c->xmm_in[i]))
			why("after resuming, %s differs from the caller's%.0llx%.0llx", "an xmm register", 0, 0);
	printf("%s %s %s%s%s%s\n", cur.why[0] ? "FAIL" : "ok", name, label, fault ? "" : " returned",
	       cur.why[0] ? ": " : "", cur.why);
	return !cur.why[0];
}

#ifdef MONT_HAVE_IFMA
/* The IFMA kernels, when this CPU and OS run AVX-512 IFMA (gcc's cpu
 * model checks XCR0 too).  amm52_K / amm52f_K / amm52x2p_K: operand
 * `which` (a, b, n) with its last 64 bytes on the no-access page, L = all
 * the limbs of a number (8K, 4K of a pair: all of its room read);
 * sqr52x2p_K, ams52x2p_K and ams52_K the same with a or n (b is a); gather52_C: the table's last
 * entry ends there.  The values do not matter: every case faults. */
static int ifma_cases(uint8_t *guard, int *cases)
{
	static montk_amm_fn *const x1[] = MONTK_IFMA_X1;
	static montk_amm_fn *const x1f[] = MONTK_IFMA_X1F;
	static montk_amm2_fn *const x2[] = MONTK_IFMA_X2P;
	static montk_amm2_fn *const sq2[] = MONTK_IFMA_X2PSQR;
	static montk_amm_fn *const sq1[] = MONTK_IFMA_X1SQR;
	static montk_amm2_fn *const sq2b[] = MONTK_IFMA_X2PAMS;
	static montk_gather_fn *const g[] = MONTK_IFMA_GATHER;
	static const char *const opname[3] = {"a", "b", "n"};
	static const char *const fmt[6] = {"montk_amm52_%zu", "montk_amm52x2p_%zu", "montk_sqr52x2p_%zu",
	                                   "montk_amm52f_%zu", "montk_ams52_%zu", "montk_ams52x2p_%zu"};
	const size_t kmin[6] = {1, 1, MONTK_IFMA_X2PSQR_KMIN, 1, MONTK_IFMA_X1SQR_KMIN,
	                        MONTK_IFMA_X2PAMS_KMIN};
	const size_t kmax[6] = {MONTK_IFMA_KMAX, MONTK_IFMA_X2P_KMAX, MONTK_IFMA_X2PSQR_KMAX,
	                        MONTK_IFMA_X1F_KMAX, MONTK_IFMA_X1SQR_KMAX, MONTK_IFMA_X2PAMS_KMAX};
	static uint64_t ops[3][2 * MONTK_IFMA_KMAX * MONTK_IFMA_LANES] __attribute__((aligned(64)));
	static uint64_t r[2 * MONTK_IFMA_KMAX * MONTK_IFMA_LANES] __attribute__((aligned(64)));
	static const uint64_t k0[2] = {1, 1};
	uint64_t s = 0x1f3a;
	int ok = 1;
	char name[32], label[64];
	if (!__builtin_cpu_supports("avx512ifma") || !__builtin_cpu_supports("avx512vl")) {
		printf("skip ifma: this CPU or OS does not run AVX-512 IFMA\n");
		return 1;
	}
	/* one product, a packed pair, its square, n', one square, a pair square in blocks */
	for (int kind = 0; kind < 6; kind++)
		for (size_t K = kmin[kind]; K <= kmax[kind]; K++)
			for (int which = 0; which < 3; which++) {
				int two = kind == 1 || kind == 2 || kind == 5, sqr = kind == 2 || kind >= 4;
				size_t L = K * (two ? MONTK_IFMA_X2P_LANES : MONTK_IFMA_LANES);
				size_t room = (two ? 2 : 1) * L;
				uint64_t *p[3] = {ops[0], ops[1], ops[2]};
				if (sqr && which == 1)
					continue;
				p[which] = (uint64_t *)(guard - 8 * (room - 8));
				for (int o = 0; o < 3; o++)
					for (size_t i = 0; i < room - (o == which ? 8 : 0); i++)
						p[o][i] = (next(&s) & 0xfffffffffffffu) | (uint64_t)(o == 2);
				struct wu_call c = {.fn = kind == 5 ? (void *)sq2b[K - kmin[kind]] :
				                          kind == 4 ? (void *)sq1[K - kmin[kind]] :
				                          sqr ? (void *)sq2[K - kmin[kind]] :
				                          two ? (void *)x2[K - 1] :
				                          kind == 3 ? (void *)x1f[K - 1] : (void *)x1[K - 1]};
				uint64_t args[6] = {(uintptr_t)r, (uintptr_t)p[0], (uintptr_t)p[sqr ? 0 : 1],
				                    (uintptr_t)p[2], two ? (uintptr_t)k0 : 1, L};
				memcpy(c.arg, args, sizeof args);
				snprintf(name, sizeof name, fmt[kind], K);
				snprintf(label, sizeof label, "L=%zu operand %s", L, opname[which]);
				ok &= call_and_check(name, c.fn, &c, label, &s, 1);
				++*cases;
				if (which == 2) {	/* and once returning, operands in place */
					c.arg[1] = (uintptr_t)ops[0], c.arg[2] = (uintptr_t)ops[sqr ? 0 : 1];
					c.arg[3] = (uintptr_t)ops[2];
					ok &= call_and_check(name, c.fn, &c, label, &s, 0);
					++*cases;
				}
			}
	for (size_t C = 1; C <= MONTK_IFMA_GATHER_CMAX; C++) {
		size_t entries = 4, stride = 64 * C;
		struct wu_call c = {.fn = (void *)g[C - 1]};
		uint64_t args[6] = {(uintptr_t)r, (uintptr_t)(guard + 64 - entries * stride), entries, stride, 3, 3};
		memcpy(c.arg, args, sizeof args);
		snprintf(name, sizeof name, "montk_gather52_%zu", C);
		snprintf(label, sizeof label, "entries=%zu operand table", entries);
		ok &= call_and_check(name, c.fn, &c, label, &s, 1);
		++*cases;
	}
	return ok;
}
#endif

#ifdef MONT_HAVE_IFMA_MB
/* The 8-lane kernels: montk_amm52mb with operand a, b or ctx (whose n_{L-1}
 * is the last it reads) ending on the no-access page, montk_ams52mb with a
 * or ctx (its entry L last), L = 8; montk_gather52mb with the table's last
 * entry ending there.  Every case faults. */
static int mb_cases(uint8_t *guard, int *cases)
{
	enum { L = 8, V = 8 * L, CTX = 32 * (L + 2) };	/* limbs */
	static uint64_t a[V], b[V], r[V], ctx[CTX] __attribute__((aligned(64)));
	static const uint64_t idx[8] = {3, 3, 3, 3, 3, 3, 3, 3};
	static const char *const opname[3] = {"a", "b", "ctx"};
	uint64_t s = 0x2b7e;
	int ok = 1;
	if (!__builtin_cpu_supports("avx512ifma")) {
		printf("skip ifma-mb: this CPU or OS does not run AVX-512 IFMA\n");
		return 1;
	}
	for (int sqr = 0; sqr < 2; sqr++)
		for (int which = 0; which < 3; which++) {
			if (sqr && which == 1)
				continue;	/* the squaring has no b */
			/* each operand's last read 64 bytes on the page */
			uint64_t *p[3] = {a, b, ctx};
			size_t room = which < 2 ? V : sqr ? CTX : 32 * L + 16;
			p[which] = (uint64_t *)(guard - 8 * (room - 8));
			for (int o = 0; o < 3; o++)
				for (size_t i = 0; i < (o == which ? room - 8 : o < 2 ? V : CTX); i++)
					p[o][i] = next(&s) & 0xfffffffffffffu;
			struct wu_call c = {.fn = sqr ? (void *)montk_ams52mb : (void *)montk_amm52mb};
			uint64_t args[5] = {(uintptr_t)r, (uintptr_t)p[0], (uintptr_t)p[1], (uintptr_t)p[2], L};
			if (sqr)
				args[2] = (uintptr_t)p[2], args[3] = L;
			memcpy(c.arg, args, sizeof args);
			char label[64];
			snprintf(label, sizeof label, "L=%d operand %s", L, opname[which]);
			ok &= call_and_check(sqr ? "montk_ams52mb" : "montk_amm52mb", c.fn, &c, label, &s, 1);
			++*cases;
		}
	size_t entries = 4, span = 8;
	struct wu_call c = {.fn = (void *)montk_gather52mb};
	uint64_t args[5] = {(uintptr_t)r, (uintptr_t)(guard + 64 - entries * span * 64), entries, span,
	                    (uintptr_t)idx};
	memcpy(c.arg, args, sizeof args);
	ok &= call_and_check("montk_gather52mb", c.fn, &c, "entries=4 operand table", &s, 1);
	++*cases;
	return ok;
}
#endif

int main(void)
{
	struct { const char *name; void *fn; int is_mul; } k[] = {
		{"montk_mul_mulq", (void *)montk_mul_mulq, 1},
		{"montk_sqr_mulq", (void *)montk_sqr_mulq, 0},
#ifdef MONT_HAVE_ADX
		{"montk_mul_adx", (void *)montk_mul_adx, 1},
		{"montk_sqr_adx", (void *)montk_sqr_adx, 0},
		{"montk_sqr_adx8", (void *)montk_sqr_adx8, 0},
#endif
	};
	SYSTEM_INFO si;
	GetSystemInfo(&si);
	uint8_t *pages = VirtualAlloc(NULL, 2 * si.dwPageSize, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	DWORD old;
	if (!pages || !VirtualProtect(pages + si.dwPageSize, si.dwPageSize, PAGE_NOACCESS, &old)) {
		printf("FAIL cannot set up the no-access page (error %lu)\n", GetLastError());
		return 1;
	}
	if (!AddVectoredExceptionHandler(1, on_fault)) {
		printf("FAIL AddVectoredExceptionHandler\n");
		return 1;
	}
	int ok = 1, cases = 0;
	/* num 8 and 16 take the kernels' unrolled paths, 5 the generic loop. */
	static const size_t sizes[] = {5, 8, 16};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++)
			for (int which = 0; which < 3; which++) {
				if (!k[i].is_mul && which == 1)
					continue;
				ok &= run_case(k[i].name, k[i].fn, k[i].is_mul, which, sizes[j],
				               pages + si.dwPageSize);
				cases++;
			}
#ifdef MONT_HAVE_IFMA
	ok &= ifma_cases(pages + si.dwPageSize, &cases);
#endif
#ifdef MONT_HAVE_IFMA_MB
	ok &= mb_cases(pages + si.dwPageSize, &cases);
#endif
	printf("%s: %d cases\n", ok ? "ok" : "FAIL", cases);
	return !ok;
}
