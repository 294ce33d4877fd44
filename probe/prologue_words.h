/* The stack frame of a function in a fixed-width instruction set (AArch64,
 * ARM A32/Thumb, RISC-V), read from its code where -fstack-usage is not
 * available: the deepest the stack pointer goes below its value at entry. */
#ifndef ASMCAP_PROLOGUE_WORDS_H
#define ASMCAP_PROLOGUE_WORDS_H

#include "isa_words.h"

/* How many bytes one instruction moves sp down (negative: up), when it
 * does so by a constant; 0 otherwise. */
long sp_down(enum isa isa, uint32_t word, unsigned len);

/* Bytes of frame of the code data[from..to) (spans as isa_walk takes
 * them): the largest sum of sp_down over a prefix of the code in address
 * order, so an early return before a shrink-wrapped prologue, or an
 * epilogue in the middle, does not hide the frame.  -1 when no instruction
 * decodes. */
long prologue_frame_words(const struct isa_span *s, size_t n, const uint8_t *data,
                          uint64_t from, uint64_t to);

#endif
