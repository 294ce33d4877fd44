/* SPDX-License-Identifier: MIT */
/* Commands as words: a growing argv, split like sh splits (single/double
 * quotes, backslashes; no expansion), and joined back for messages. */
#ifndef ASMCAP_ARGV_H
#define ASMCAP_ARGV_H

#include <stddef.h>

struct strv { char **v; size_t n, cap; };   /* NULL-terminated when n > 0 */
void strv_push(struct strv *s, const char *word);
void strv_append(struct strv *s, const struct strv *more);
void strv_free(struct strv *s);
int strv_has(const struct strv *s, const char *word);     /* is word one of s's words? */

/* Split `text` like sh does (single/double quotes, backslashes; no
 * expansion).  Returns 0, or -1 with err on an unterminated quote. */
int argv_split_words(const char *text, struct strv *out, char *err, size_t errlen);

/* argv joined for messages, each word quoted when the shell would need it. */
char *argv_join(char *const argv[]);
/* The same for one-line messages: the private dir's path left out, and a
 * long command shortened in the middle so what follows it still fits. */
char *argv_brief(char *const argv[]);

#endif
