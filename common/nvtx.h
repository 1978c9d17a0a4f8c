/* nvtx.h - named ranges for NVIDIA's profilers (Nsight Systems shows them
 * on the timeline above the copies and kernels they enclose). They come from
 * the CUDA toolkit's header-only NVTX 3; without it they compile to
 * nothing. A range costs nothing measurable when no profiler is attached.
 */
#ifndef SPEEDLAB_NVTX_H
#define SPEEDLAB_NVTX_H

#if defined(SPEEDLAB_HAVE_NVTX) && SPEEDLAB_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
static inline void sl_range_push(const char *name) { nvtxRangePushA(name); }
static inline void sl_range_pop(void) { nvtxRangePop(); }
#else
static inline void sl_range_push(const char *name) { (void)name; }
static inline void sl_range_pop(void) {}
#endif

#endif
