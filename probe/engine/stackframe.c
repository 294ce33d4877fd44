/* SPDX-License-Identifier: MIT */
/* Measuring one function as a compiler builds it: the stack frame from
 * -fstack-usage where the compiler has it, else from the prologue in the
 * object (read by the object's architecture module, arch.h); the code
 * size from the symbol table.  Shared by frame and choose. */
#include "stackframe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "file.h"
#include "obj.h"
#include "xalloc.h"

int stackframe_su_parse_line(const char *line, size_t len, char *func, size_t funclen, long *bytes)
{
	const char *tab = memchr(line, '\t', len);
	if (!tab)
		return 0;
	const char *name = tab;
	while (name > line && name[-1] != ':')
		name--;
	if (name == line || name == tab || (size_t)(tab - name) >= funclen)
		return 0;
	char num[32];
	size_t n = (size_t)(line + len - tab - 1);
	const char *digits = tab + 1, *end = memchr(digits, '\t', n);
	n = end ? (size_t)(end - digits) : n;
	if (n == 0 || n >= sizeof num)
		return 0;
	memcpy(num, digits, n);
	num[n] = 0;
	char *stop;
	long v = strtol(num, &stop, 10);
	if (*stop || v < 0)
		return 0;
	memcpy(func, name, (size_t)(tab - name));
	func[tab - name] = 0;
	*bytes = v;
	return 1;
}

/* A compiler may clone a function (sha1_block.constprop.0): the clone
 * counts when the plain name is not there. */
static int name_matches(const char *have, const char *want, int exact)
{
	size_t n = strlen(want);
	if (strncmp(have, want, n))
		return 0;
	return have[n] == 0 || (!exact && have[n] == '.');
}

static long su_find(const char *text, const char *func)
{
	long found = -1;
	for (int exact = 1; exact >= 0 && found < 0; exact--)
		for (const char *p = text; *p && found < 0;) {
			size_t n = strcspn(p, "\n");
			char name[256];
			long v;
			if (stackframe_su_parse_line(p, n, name, sizeof name, &v) && name_matches(name, func, exact))
				found = v;
			p += n + (p[n] == '\n');
		}
	return found;
}

/* The function's code size (symbol size, else up to the next symbol or
 * the section end) and, when wanted, its prologue's frame. */
/* The defined symbol of func: its own name first, else a compiler clone
 * (only when clones is set). */
static const struct obj_symbol *find_func(const struct obj *o, const char *func, int clones)
{
	for (int exact = 1; exact >= !clones; exact--)
		for (size_t i = 0; i < o->nsymbols; i++) {
			const char *nm = o->symbols[i].name;
			if (o->format == OBJ_MACHO && nm[0] == '_')
				nm++;
			if (o->symbols[i].section >= 0 && !o->symbols[i].mapping && name_matches(nm, func, exact))
				return &o->symbols[i];
		}
	return NULL;
}

/* The object at path, parsed; its bytes are returned for close_object.
 * NULL when it cannot be read or parsed. */
static uint8_t *open_object(const char *path, struct obj *o)
{
	size_t len;
	char err[256];
	uint8_t *bytes = file_read(path, &len);
	if (bytes && obj_parse(o, bytes, len, err, sizeof err)) {
		free(bytes);
		bytes = NULL;
	}
	return bytes;
}

static void close_object(struct obj *o, uint8_t *bytes)
{
	obj_free(o);
	free(bytes);
}

int stackframe_object_defines(const char *path, const char *name)
{
	struct obj o;
	uint8_t *bytes = open_object(path, &o);
	if (!bytes)
		return -1;
	int found = find_func(&o, name, 0) != NULL;
	close_object(&o, bytes);
	return found;
}

int stackframe_object_native(const char *path, char *name, size_t len)
{
	struct obj o;
	uint8_t *bytes = open_object(path, &o);
	snprintf(name, len, "unreadable");
	if (!bytes)
		return -1;
	char buf[64];
	snprintf(name, len, "%s %s", arch_machine_name(&o, buf, sizeof buf), obj_format_name(&o));
	int native = arch_runs_natively(&o);
	close_object(&o, bytes);
	return native;
}

/* LTO output (no machine code to measure)?  1 or 0. */
static int lto_object(const char *path)
{
	size_t len;
	uint8_t *bytes = file_read(path, &len);
	struct obj o;
	char err[256];
	int lto = bytes && obj_is_bitcode(bytes, len);
	if (bytes && !lto && !obj_parse(&o, bytes, len, err, sizeof err)) {
		lto = obj_has_gimple(&o);
		obj_free(&o);
	}
	free(bytes);
	return lto;
}

static void from_object(const char *path, const char *func, struct frame_result *fr, int want_frame)
{
	struct obj o;
	uint8_t *bytes = open_object(path, &o);
	if (!bytes)
		return;
	const struct obj_symbol *s = find_func(&o, func, 1);
	if (s && (size_t)s->section < o.nsections) {
		const struct obj_section *sec = &o.sections[s->section];
		uint64_t end = obj_symbol_end(&o, s);
		if (end <= sec->size && s->value <= end) {
			fr->code = (long)(end - s->value);
			const struct arch *a = arch_of_obj(&o);
			if (want_frame && sec->data && a && a->prologue_frame)
				fr->frame = a->prologue_frame(a, sec->data + s->value, (size_t)(end - s->value),
				                              s->thumb ? ARCH_MODE_THUMB : 0),
				fr->frame_from = "prologue";
			else if (want_frame && !fr->frame_from)
				fr->frame_from = "none";     /* no prologue reader for this architecture */
		}
	}
	close_object(&o, bytes);
}

int stackframe_measure(struct cc_ctx *c, const char *src, const char *func, const struct strv *flags,
                  struct frame_result *fr, char *err, size_t errlen)
{
	static unsigned seq;
	static int su_ok = -1;
	memset(fr, 0, sizeof *fr);
	fr->frame = fr->code = -1;
	int ok = cc_flags_accepted(c, flags, fr->why, sizeof fr->why, err, errlen);
	if (ok <= 0)
		return ok;
	if (su_ok < 0) {
		struct strv su = { 0 };
		char why[256];
		strv_push(&su, "-fstack-usage");
		su_ok = cc_flags_accepted(c, &su, why, sizeof why, err, errlen);
		strv_free(&su);
		if (su_ok < 0)
			return -1;
	}
	fr->available = 1;
	char obj[4200], su[4200];
	unsigned k = seq++;
	snprintf(obj, sizeof obj, "%s/frame-%u.o", tmpdir_path(), k);
	snprintf(su, sizeof su, "%s/frame-%u.su", tmpdir_path(), k);
	struct run_result r;
	if (cc_compile(c, flags, su_ok ? "-fstack-usage" : NULL, src, obj, &r, err, errlen))
		return -1;
	if (!r.exited || r.status) {
		size_t n;
		const char *line = cc_error_line(r.err, &n);
		snprintf(err, errlen, "%s does not compile with %s%s%.*s", src,
		         flags->n ? "these flags" : "no extra flags", n ? ": " : "", (int)n, line);
		run_result_free(&r);
		return -2;
	}
	run_result_free(&r);
	fr->compiled = 1;
	if (su_ok) {
		size_t len;
		char *text = (char *)file_read(su, &len);
		if (text) {
			fr->frame = su_find(text, func);
			fr->frame_from = "stack-usage";
		}
		free(text);
	}
	from_object(obj, func, fr, fr->frame < 0);
	if (fr->code < 0) {
		fr->available = 0;
		fr->frame = -1;
		fr->lto = lto_object(obj);
		if (fr->lto)
			snprintf(fr->why, sizeof fr->why, "not machine code (LTO): cannot measure %s", func);
		else
			snprintf(fr->why, sizeof fr->why, "no function %s in the object these flags build", func);
	}
	return 0;
}
