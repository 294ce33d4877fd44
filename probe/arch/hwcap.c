/* SPDX-License-Identifier: MIT */
/* AT_HWCAP/AT_HWCAP2 bits are the kernel's uapi <asm/hwcap.h> (aarch64,
 * arm) or the ISA letters (riscv64: bit 'X' - 'A'); a module's key/value
 * reader (riscv64's riscv_hwprobe(2)) takes {key, value} pairs and answers
 * each value, or sets key -1 when it does not know the key. */
#include "hwcap.h"
#include "words.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef __linux__
#include <sys/auxv.h>
#endif

static void ask_keys(struct hw_state *s, const struct feature *f, size_t n, hw_ask *ask)
{
	for (size_t i = 0; i < n; i++) {
		int key = words_of(&f[i])->hwprobe.key, seen = key < 0;
		for (size_t k = 0; k < s->nkeys && !seen; k++)
			seen = s->asked[k] == key;
		if (!seen && s->nkeys < HW_MAX_KEYS) {
			s->asked[s->nkeys] = key;
			s->keys[s->nkeys++].key = key;
		}
	}
	if (!s->nkeys)
		return;
	/* no reader: keys asked for on a machine that has none */
	int r = ask ? ask(s) : -ENOSYS;
	s->hwprobe = r == 0 ? 1 : r;
}

void hwcap_read(struct hw_state *s, const struct feature *f, size_t n, hw_ask *ask)
{
	memset(s, 0, sizeof *s);
#ifdef __linux__
	s->auxv = 1;
	s->hwcap = getauxval(AT_HWCAP);
	s->hwcap2 = getauxval(AT_HWCAP2);
#endif
	ask_keys(s, f, n, ask);
}

/* The next reason, after the ones already in why. */
static struct buf *more(struct buf *why)
{
	if (why->n)
		buf_puts(why, "; ");
	return why;
}

/* 1/0 from the hwprobe answer, -1 when there is none for f's key. */
static int from_hwprobe(const struct feature *f, const struct hw_state *s, struct buf *why)
{
	const struct cat_hwprobe *p = &words_of(f)->hwprobe;
	if (p->key < 0)
		return -1;
	if (s->hwprobe != 1) {
		buf_printf(more(why), "no riscv_hwprobe (%s)", s->hwprobe == -ENOSYS
		           ? "ENOSYS: a kernel before 6.4, or qemu-user" : strerror(-s->hwprobe));
		return -1;
	}
	for (size_t k = 0; k < s->nkeys; k++) {
		if (s->asked[k] != p->key)
			continue;
		if (s->keys[k].key == -1) {
			buf_printf(more(why), "the kernel does not know hwprobe key %d", p->key);
			return -1;
		}
		if (s->keys[k].value >> p->bit & 1)
			return 1;
		buf_printf(more(why), "hwprobe key %d bit %u clear", p->key, p->bit);
		return 0;
	}
	buf_printf(more(why), "hwprobe key %d not asked (more than %d keys)", p->key, HW_MAX_KEYS);
	return -1;
}

int hwcap_runs(const struct feature *f, const struct hw_state *s, struct buf *why)
{
	int r = from_hwprobe(f, s, why);
	const struct cat_hwcap *h = &words_of(f)->hwcap;
	if (r >= 0 || !h->reg)
		return r;
	if (!s->auxv) {
		buf_puts(more(why), "no AT_HWCAP on this OS");
		return -1;
	}
	uint64_t word = h->reg == 2 ? s->hwcap2 : s->hwcap;
	if (word >> h->bit & 1)
		return 1;
	buf_printf(more(why), "AT_HWCAP%s bit %u clear", h->reg == 2 ? "2" : "", h->bit);
	return 0;
}

int hwcap_cpu_runs(const struct feature *f, struct buf *why)
{
	struct hw_state s;
	hwcap_read(&s, f, 1, NULL);
	return hwcap_runs(f, &s, why);
}

size_t hwcap_cpu_state(struct arch_cpu_state *st)
{
	struct hw_state s;
	size_t k = 0;
	hwcap_read(&s, NULL, 0, NULL);
	if (!s.auxv)
		return 0;
	st[k] = (struct arch_cpu_state){ "ASMCAP_CPU_HWCAP", "", "getauxval(AT_HWCAP)" };
	snprintf(st[k++].value, sizeof st->value, "%#llx", (unsigned long long)s.hwcap);
	st[k] = (struct arch_cpu_state){ "ASMCAP_CPU_HWCAP2", "", "getauxval(AT_HWCAP2)" };
	snprintf(st[k++].value, sizeof st->value, "%#llx", (unsigned long long)s.hwcap2);
	return k;
}
