/* pictures.h - a lesson's picture folder (make <fractal lesson>):
 * <results>/<lesson>/<time>-<host>/ and its latest, holding the image and,
 * for each wrong variant, where its image is wrong. Made before anything
 * is measured, so that a read-only or full results folder is refused up
 * front, as the bench does, rather than after every variant was timed.
 */
#ifndef SPEEDLAB_PICTURES_H
#define SPEEDLAB_PICTURES_H

#include <stddef.h>
#include <stdio.h>

#include "run_dir.h"
#include "suite.h"

/* The folder for kernel's pictures under results. 0, or -1 with why. */
int sl_pictures_open(sl_run_dir *run, const char *results, const char *kernel, char *why,
                     size_t whylen);

/* The pictures' data into the folder, drawn when plots is set, then
 * published, with a line on out saying where they are (or that gnuplot is
 * missing). 0, or -1 with why (the folder discarded when nothing could be
 * written; a failed drawing keeps the data). */
int sl_pictures_publish(const sl_suite *s, sl_run_dir *run, const char *kernel, int plots,
                        FILE *out, char *why, size_t whylen);

#endif
