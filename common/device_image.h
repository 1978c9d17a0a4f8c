/* device_image.h - LLVM 19's host offload plugin writes each device image
 * it loads to /tmp/tmpfile_XXXXXX, dlopens it and never removes it: every
 * process that runs a target region on the host offload device leaves
 * half a megabyte in /tmp (about 190 files after a day of make test on
 * the development VM). Once mapped, an image needs no name. Also compiled
 * into the offload probe (cmake/probe_offload), which has no other code
 * of the kit's. */
#ifndef SPEEDLAB_DEVICE_IMAGE_H
#define SPEEDLAB_DEVICE_IMAGE_H

/* Remove the names of the /tmp/tmpfile_* files this process has mapped,
 * never another process's. Returns how many were found (0 before the
 * first target region, and where there is no /proc: not Linux). */
int sl_forget_device_image_files(void);

#endif
