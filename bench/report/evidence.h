/* evidence.h - what the image kernels' runs show without a clock: the
 * picture, where a wrong image is wrong, each thread's share of the work
 * under each schedule, and how many SIMD lane-iterations do useful work.
 *
 * Everything here is computed from counts images (the reference's, and a
 * wrong variant's) and the row_thread records of the validation runs:
 * kernels stay pure, and no number depends on a clock.
 */
#ifndef SPEEDLAB_EVIDENCE_H
#define SPEEDLAB_EVIDENCE_H

#include <stdint.h>
#include <stdio.h>

#include "suite.h"

/* Pictures are at most this many pixels per side (larger images are
 * sampled): enough for a slide, small enough for a results folder. */
#define SL_PICTURE_MAX_SIDE 1024

/* Per-thread work is drawn for sweeps of at most this many threads. */
#define SL_MAX_THREADS_SHOWN 256

/* Useful lane-iterations / executed lane-iterations when fixed strips of
 * `lanes` neighbouring pixels iterate together until their slowest pixel is
 * done (the textbook masked loop). */
double sl_strip_utilisation(const int32_t *counts, int64_t width, int64_t height,
                            int lanes);

/* The same for the lane pool of solutions/fractal/simd.c: `lanes` lanes
 * that take the row's next pixel at checks every `check_every` steps. */
double sl_pool_utilisation(const int32_t *counts, int64_t width, int64_t height,
                           int lanes, int check_every);

/* Write the image kernels' evidence into dir: image-<kernel>.bin/.gp (the
 * reference picture), diff-<configuration>.bin/.gp (where a wrong image is
 * wrong), schedule-<kernel>.dat, threadwork-<kernel>-<threads>.dat and
 * lanes-<kernel>.dat. Returns 0, or -1 with errno set. */
int sl_write_evidence(const char *dir, const sl_suite *s);

/* Only the pictures: image-<kernel> and diff-<configuration> (the runner). */
int sl_write_pictures(const char *dir, const sl_suite *s);

/* The summary's section on the image kernels (Markdown). */
void sl_print_evidence(FILE *f, const sl_suite *s);

#endif
