/* gpu_info.c - ask the CUDA runtime and the NVIDIA driver about GPUs
 * (gpu_info.h). The CUDA runtime's API is plain C, so this file is C. */
#define _DEFAULT_SOURCE
#include "gpu_info.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "speedlab_config.h"

#if SPEEDLAB_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

int sl_cuda_device_count(void)
{
#if SPEEDLAB_HAVE_CUDA
    int n = 0;
    /* No driver or no device is an error code here, not a crash. */
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
#else
    return -1;
#endif
}

const char *sl_cuda_absent_reason(void)
{
    return sl_cuda_device_count() < 0 ? "CUDA variants not built: no nvcc at configure time"
                                      : "no CUDA device";
}

/* The "Model:" line of the first /proc/driver/nvidia/gpus/<bus>/information. */
static int driver_gpu_name(char *out, size_t len)
{
    const char *base = "/proc/driver/nvidia/gpus";
    DIR *d = opendir(base);
    if (d == NULL)
        return -1;
    int found = -1;
    struct dirent *e;
    while (found != 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[512], line[256];
        snprintf(path, sizeof path, "%s/%.256s/information", base, e->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "Model:", 6) == 0) {
                char *v = line + 6 + strspn(line + 6, " \t");
                v[strcspn(v, "\n")] = '\0';
                snprintf(out, len, "%s", v);
                found = 0;
                break;
            }
        fclose(f);
    }
    closedir(d);
    return found;
}

void sl_gpu_name(char *out, size_t len)
{
#if SPEEDLAB_HAVE_CUDA
    struct cudaDeviceProp prop;
    if (sl_cuda_device_count() > 0 && cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
        snprintf(out, len, "%s (sm_%d%d)", prop.name, prop.major, prop.minor);
        return;
    }
#endif
    if (driver_gpu_name(out, len) != 0)
        snprintf(out, len, "none found");
}
