/* Test helper: print what the object readers see, one line per section and
 * symbol, recursing into ar archives.  Exit 1 with the reader's error. */
#include <stdio.h>
#include <stdlib.h>

#include "obj.h"

static int dump(const char *what, const uint8_t *buf, size_t len)
{
	char err[256];
	struct obj o;

	if (ar_is_archive(buf, len)) {
		size_t pos = 0, mlen;
		const uint8_t *m;
		char name[256];
		int r;
		while ((r = ar_next(buf, len, &pos, name, sizeof name, &m, &mlen, err, sizeof err)) == 1) {
			printf("member %s %zu\n", name, mlen);
			if (dump(name, m, mlen))
				return 1;
		}
		if (r < 0)
			fprintf(stderr, "%s: %s\n", what, err);
		return r < 0;
	}
	if (obj_parse(&o, buf, len, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", what, err);
		return 1;
	}
	printf("format %s bits %d arch %d\n", obj_format_name(&o), o.bits, (int)o.arch);
	for (size_t i = 0; i < o.nsections; i++) {
		const struct obj_section *s = &o.sections[i];
		printf("section %zu %s size %llu addr 0x%llx code %d data %d\n", i, s->name,
		       (unsigned long long)s->size, (unsigned long long)s->addr, s->is_code, s->data != NULL);
	}
	for (size_t i = 0; i < o.nsymbols; i++) {
		const struct obj_symbol *s = &o.symbols[i];
		printf("symbol %s section %d value %llu size %llu func %d data %d global %d\n", s->name,
		       s->section, (unsigned long long)s->value, (unsigned long long)s->size, s->is_func,
		       s->is_data, s->is_global);
	}
	obj_free(&o);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, n;
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (len == cap) {
				uint8_t *g = realloc(buf, cap = cap ? 2 * cap : 65536);
				if (!g)
					return 2;
				buf = g;
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n);
		fclose(f);
		bad |= dump(argv[i], buf, len);
		free(buf);
	}
	return bad;
}
