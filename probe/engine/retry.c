/* SPDX-License-Identifier: MIT */
/* The flakiness rule every kind of probe follows (retry.h). */
#include "retry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

int retry_control(struct retry *t, const struct retry_kind *k, char *err, size_t errlen)
{
	int r = 3, fatal = 0;
	for (int n = 0; n < PROBE_TRIES && r && !fatal; n++) {
		r = k->control_once(k->ctx, &fatal, err, errlen);
		if (r && !fatal && t->control_ok)
			t->flaky = 1;
		t->control_failed |= r && !fatal;
	}
	if (!r) {
		t->flaky |= t->control_failed;
		t->control_ok = 1;
	}
	return r;
}

void retry_decided(struct retry *t, const struct retry_tries *a)
{
	t->flaky |= a->fails > 0;       /* failed before, not now */
}

void retry_failed(struct retry *t, struct retry_tries *a, const char *said, int odd, const char *why)
{
	if (a->fails && strcmp(a->said, said))
		t->flaky = 1;
	a->odd |= odd;
	free(a->said);
	free(a->why);
	a->said = xstrdup(said);
	a->why = xstrdup(why);
	a->fails++;
}

void retry_tries_free(struct retry_tries *a)
{
	free(a->said);
	free(a->why);
	memset(a, 0, sizeof *a);
}

int retry_rounds(struct retry *t, const struct retry_kind *k, size_t *todo, size_t n, char *err, size_t errlen)
{
	int r = 0;
	for (int round = 0; !r && n; round++) {
		if (round && (r = retry_control(t, k, err, errlen)))
			break;
		r = k->round(k->ctx, todo, n, &n, err, errlen);
		if (r || !n || round + 1 < PROBE_TRIES)
			continue;
		/* reproduced around passing controls: rejections (their verdicts
		 * are set); anything less: unusable */
		int settled = !t->flaky;
		for (size_t i = 0; i < n; i++) {
			const struct retry_tries *a = k->tries(k->ctx, todo[i]);
			settled &= a->fails >= PROBE_TRIES && !a->odd;
		}
		if (!settled) {
			const struct retry_tries *a = k->tries(k->ctx, todo[0]);
			snprintf(err, errlen, "%.*s (tried %d times%s)", (int)(errlen > 100 ? errlen - 100 : 0), a->why,
			         PROBE_TRIES, t->flaky ? "; this toolchain fails intermittently" : "");
			r = 3;
		}
		n = 0;
	}
	return r;
}

int retry_confirm_broken(struct retry *t, const struct retry_kind *k, const size_t *todo, size_t n,
                         char *err, size_t errlen)
{
	size_t differs = n;
	int r = 0;
	for (int round = 1; !r && n && differs == n && round < PROBE_TRIES; round++) {
		r = retry_control(t, k, err, errlen);
		/* twice, one after the other: a wrapper that damages every Nth
		 * output (N >= 2) cannot damage both */
		for (size_t i = 0; !r && i < n && differs == n; i++)
			for (int twice = 0; !r && twice < 2 && differs == n; twice++) {
				int same = 0;
				if (!(r = k->again(k->ctx, todo[i], &same, err, errlen)) && !same)
					differs = i;
			}
	}
	if (!r && n && (differs < n || t->flaky)) {
		char what[768];
		k->was_broken(k->ctx, todo[differs < n ? differs : 0], differs < n, what, sizeof what);
		snprintf(err, errlen, "%s: this toolchain fails intermittently", what);
		r = 3;
	}
	return r;
}
