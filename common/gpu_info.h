/* gpu_info.h - which GPUs this process can use, asked of the CUDA runtime
 * (when the CUDA variants were built) and of the NVIDIA driver, so every
 * report can name the device a figure came from, or say there was none. */
#ifndef SPEEDLAB_GPU_INFO_H
#define SPEEDLAB_GPU_INFO_H

#include <stddef.h>

/* CUDA devices the CUDA runtime sees: 0 when there are none or no driver;
 * -1 when this build has no CUDA variants (no nvcc at configure time). */
int sl_cuda_device_count(void);

/* Why sl_cuda_device_count() is not positive, as a phrase for a "skipped:"
 * line ("no CUDA device", "not built: no nvcc found"). */
const char *sl_cuda_absent_reason(void);

/* The first GPU's name ("NVIDIA H100 80GB HBM3"): from the CUDA runtime,
 * else the NVIDIA driver's /proc files; "none found" when neither knows. */
void sl_gpu_name(char *out, size_t len);

#endif
