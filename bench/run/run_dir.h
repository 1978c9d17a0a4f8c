/* run_dir.h - a run folder that appears complete or not at all.
 *
 * A run is written into results/.<name>.partial and renamed to
 * results/<name> only when every file is in place; results/latest is then
 * re-pointed with a symlink renamed over the old one. An interrupted run
 * leaves at most a hidden .partial folder and never touches earlier runs.
 */
#ifndef SPEEDLAB_RUN_DIR_H
#define SPEEDLAB_RUN_DIR_H

#include "args.h"

#include <stddef.h>

typedef struct sl_run_dir {
    char base[SL_PATH_BUF];    /* results */
    char name[256];       /* 20261121T063000Z-host */
    char partial[SL_PATH_BUF]; /* results/.20261121T063000Z-host.partial */
    char final[SL_PATH_BUF];   /* results/20261121T063000Z-host */
    int lock_fd;          /* holds partial/.owner.lock while the run lives */
    int cleaned;          /* partial folders of killed runs removed from base */
} sl_run_dir;

/* Create base (if needed) and the partial folder, which this run holds a
 * lock on while it lives. Partial folders whose run is gone (killed) are
 * removed first; r->cleaned says how many. Returns 0, or -1 with a
 * one-line reason. */
int sl_run_dir_create(sl_run_dir *r, const char *base, char *why, size_t whylen);

/* Rename partial to final and point base/latest at it. Returns 0, or -1
 * with a reason. */
int sl_run_dir_publish(sl_run_dir *r, char *why, size_t whylen);

/* Remove the partial folder and its files (a run that measured nothing). */
void sl_run_dir_discard(sl_run_dir *r);

/* mkdir -p: each missing parent of path, then path. 0, or -1 with errno. */
int sl_make_folders(const char *path);

#endif
