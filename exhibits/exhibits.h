/* exhibits.h - the exhibits the runner knows (`speedlab data-race`, ...):
 * bugs and slow cures on purpose, each a kernel's problem shown with
 * extra variants beside the solutions' own rows (table.c).
 */
#ifndef SPEEDLAB_EXHIBITS_H
#define SPEEDLAB_EXHIBITS_H

#include "kernel.h"

/* Every exhibit as a kernel table, NULL-terminated; built on the first
 * call (from the main thread, before anything runs). */
const sl_kernel *const *sl_exhibits(void);

#endif
