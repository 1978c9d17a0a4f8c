/* memory.h - how much memory a run needs and may still allocate, so that
 * a size too big for the machine is refused before anything is measured
 * (exit 2), instead of an allocation failing halfway and passing for a
 * wrong answer.
 */
#ifndef SPEEDLAB_MEMORY_H
#define SPEEDLAB_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* Bytes this process may still allocate: the least of the memory the
 * kernel reports available (MemAvailable) and what the address-space and
 * data limits (ulimit -v, prlimit --as) leave; where the smallest comes
 * from goes into from ("available memory", "the address-space limit
 * (ulimit -v)"). -1 when nothing could be read. */
int64_t sl_memory_available(const char **from);

#endif
