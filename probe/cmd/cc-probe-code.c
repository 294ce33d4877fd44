/* SPDX-License-Identifier: MIT */
/* cc-probe's evidence: the code of asmcap_probe in the object a compile
 * wrote, walked by the architecture's decoder; an instruction of the
 * feature `insn:' names (its audit patterns, as `asmcap audit' finds
 * them), every `holds:' sequence and the `reloc:' relocation. */
#include "cc-probe.h"
#include "words.h"
#include "file.h"
#include "obj.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hits {
	const struct arch *arch; const struct feature *f; const void *pats; const uint8_t *data; unsigned n;
	const struct cprobe *p; uint64_t end; unsigned char *held;      /* holds: */
	int reloc;                                                      /* reloc: found */
};

static void count_hit(void *ctx, uint64_t off, const struct arch_insn *in, unsigned step)
{
	struct hits *h = ctx;
	(void)step;
	if (in && h->f && h->arch->audit_match(h->f, h->pats, in, h->data + off))
		h->n++;
	/* a holds: sequence starts at an instruction, never inside one */
	for (size_t i = 0; in && i < h->p->nholds; i++)
		for (size_t k = 0; k < h->p->holds[i].nalt; k++) {
			const struct ccat_seq *q = &h->p->holds[i].alt[k];
			size_t b = 0;
			while (b < q->n && off + b < h->end && (h->data[off + b] & q->m[b]) == q->v[b])
				b++;
			h->held[i] |= b == q->n;
		}
}

/* Walk the code of sym: h->n instructions of h->f (NULL: none counted),
 * h->held[i] for each `holds:' line found, h->reloc for a relocation
 * against `reloc:' in its bytes.  -1 when it has no code. */
static int walk_code(const struct obj *o, const struct obj_symbol *sym, struct hits *h)
{
	const struct obj_section *sec = &o->sections[sym->section];
	uint64_t end = obj_symbol_end(o, sym);
	struct code_span *spans = NULL;
	if (!sec->data || end > sec->size || end <= sym->value)
		return -1;
	long ns = words_code_spans(o, NULL, 0, sym->section, sym->thumb ? ARCH_MODE_THUMB : 0, &spans);
	if (ns < 0)
		return -1;
	h->data = sec->data;
	h->end = end;
	words_code_walk(h->arch, spans, (size_t)ns, sec->data, sym->value, end, count_hit, h);
	free(spans);
	for (size_t i = 0; h->p->reloc && i < o->nrelocs; i++) {
		const struct obj_reloc *r = &o->relocs[i];
		h->reloc |= r->section == sym->section && r->offset >= sym->value && r->offset < end &&
		            !strcmp(r->symbol, h->p->reloc);
	}
	return 0;
}

/* The evidence for answer a in the code of s (NULL: not defined) into h,
 * whose held[] has a slot per `holds:' line.  -1 when there is no code,
 * or the probe's insn: feature cannot be read. */
static int evidence(const struct answer *a, const struct obj *o, const struct obj_symbol *s, struct hits *h)
{
	struct catalog cat;
	char why[256];
	void *pats = NULL;
	int r = -1;
	if (!s || s->section < 0 || (size_t)s->section >= o->nsections)
		return -1;
	if (!a->p->insn)
		return walk_code(o, s, h);
	if (catalog_load_builtin(&cat, a->arch->name, why, sizeof why))
		return -1;
	const struct feature *f = catalog_find(&cat, a->p->insn);
	if (f && (!a->arch->audit_compile || !a->arch->audit_compile(f, &pats, why, sizeof why))) {
		h->f = f;
		h->pats = pats;
		r = walk_code(o, s, h);
	}
	if (a->arch->audit_free)
		a->arch->audit_free(pats);
	catalog_free(&cat);
	return r;
}

/* The verdict on the code: yes when it holds an instruction of insn: (if
 * given), every holds: line and the reloc: relocation (if given). */
static void judge(struct answer *a, const struct hits *h, double ms)
{
	const struct cprobe *p = a->p;
	size_t miss = 0;
	while (miss < p->nholds && h->held[miss])
		miss++;
	if (p->insn && !h->n)
		cc_probe_answer_set(a, ST_BROKEN, xprintf("compiled, but %s holds no %s instruction: the compiler emitted other code",
		                                 CCAT_FUNCTION, p->insn), ms);
	else if (p->reloc && !h->reloc)
		cc_probe_answer_set(a, ST_BROKEN, xprintf("compiled, but %s's code has no relocation against %s (reloc:; read from "
		                                 "ELF objects only)", CCAT_FUNCTION, p->reloc), ms);
	else if (miss < p->nholds)
		cc_probe_answer_set(a, ST_BROKEN, xprintf("compiled, but %s's code does not hold `%s' (holds:): the compiler "
		                                 "emitted other code", CCAT_FUNCTION, p->holds[miss].text), ms);
	else if (p->insn)
		cc_probe_answer_set(a, ST_YES, xprintf("%s holds %u %s instruction%s%s", CCAT_FUNCTION, h->n, p->insn,
		                              h->n > 1 ? "s" : "", p->nholds ? " and every holds: sequence" : ""), ms);
	else
		cc_probe_answer_set(a, ST_YES, xprintf("%s holds every holds: sequence (%zu)", CCAT_FUNCTION, p->nholds), ms);
}

/* The verdict on an object a compile wrote (exit 0): machine code for
 * asmcap_probe holding what the probe's `insn:' and `holds:' ask. */
void cc_probe_verify(struct answer *a, const char *path, double ms)
{
	struct obj o;
	char why[256];
	size_t len = 0;
	uint8_t *buf = file_read(path, &len);
	if (!buf) {
		cc_probe_answer_set(a, ST_BROKEN, xprintf("the compiler exited 0 but wrote no object (%s)", file_error()), ms);
		return;
	}
	if (obj_is_bitcode(buf, len)) {
		cc_probe_answer_set(a, ST_SKIPPED, xstrdup("not machine code (LTO bitcode): cannot verify"), ms);
		free(buf);
		return;
	}
	if (obj_parse(&o, buf, len, why, sizeof why)) {
		cc_probe_answer_set(a, ST_BROKEN, xprintf("the compiler exited 0 but its output: %s", why), ms);
		free(buf);
		return;
	}
	struct hits h = {.arch = a->arch, .p = a->p, .held = xcalloc(a->p->nholds + 1, 1)};
	if (!evidence(a, &o, obj_symbol_named(&o, CCAT_FUNCTION), &h))
		judge(a, &h, ms);
	else if (obj_has_gimple(&o))
		cc_probe_answer_set(a, ST_SKIPPED, xstrdup("not machine code (LTO: GIMPLE in .gnu.lto_ sections): cannot verify"), ms);
	else
		cc_probe_answer_set(a, ST_BROKEN, xprintf("compiled, but the object has no code for %s", CCAT_FUNCTION), ms);
	free(h.held);
	obj_free(&o);
	free(buf);
}
