/* answer.h - the kit's checks for an answer computed elsewhere (lesson 8's
 * numba ladder, through speedlab-check): one manifest line, held to the
 * kernel's own reference and tolerance by the same code a C variant meets.
 *
 * A line: id kernel size height max_iter seed mode value hits answer
 * (whitespace-separated; mode "exact" is the kernel's own check,
 * "statistical" its check_statistics, for a generator other than the
 * kit's; answer: for an image kernel a file of width*height native int32
 * counts, row 0 at the top; for a kernel with read_answer the file it
 * reads; else "-").
 */
#ifndef SPEEDLAB_ANSWER_H
#define SPEEDLAB_ANSWER_H

#include <stddef.h>

#include "kernel.h"

/* Check one line against kernels: 0 with the verdict line ("id ok|wrong
 * expected error tolerance error_name\n") in out and *ok set; -1 with why
 * for a malformed line (unknown kernel, size out of range, a mode the
 * kernel has not, an answer file of the wrong length). */
int sl_answer_check(const sl_kernel *const *kernels, const char *line, char *out,
                    size_t outlen, int *ok, char *why, size_t whylen);

#endif
