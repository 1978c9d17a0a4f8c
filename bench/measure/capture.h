/* capture.h - what a participant's code prints while it is checked and
 * timed, kept apart from the runner's table: standard output goes to a file
 * for the length of each call (validation, a timing pass), and the lines
 * are counted per configuration, so that the table can say which variant
 * printed and that its printing was timed with it.
 */
#ifndef SPEEDLAB_CAPTURE_H
#define SPEEDLAB_CAPTURE_H

#include "args.h"

/* From now on, sl_capture_begin sends standard output to a file that
 * becomes path at sl_capture_stop (its first line marks it as the kit's).
 * 0, or -1 when it cannot be opened (then nothing is kept apart). */
int sl_capture_start(const char *path);

/* Around a variant's calls: the output goes to the file until
 * sl_capture_end, which returns how many lines it got. Without a start,
 * both do nothing (and end returns 0). */
void sl_capture_begin(void);
long sl_capture_end(void);

/* Close the file: its path when something was printed, else NULL (the
 * empty file removed). A file at path that the kit did not write is left
 * as it is, and the output goes to path-2.txt (or the next free name). */
const char *sl_capture_stop(void);

/* After sl_capture_stop: the path of the participant's own file that it
 * left alone, or NULL. */
const char *sl_capture_kept_theirs(void);

#endif
