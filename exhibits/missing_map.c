/* missing_map.c - a target region whose results never come back, and
 * why the host fallback hides it (`make missing-map`, course lesson 5, step 5.9).
 *
 * Both variants compute pi's terms into an array inside a target region
 * and add them up on the host.
 *  - map_from: the array is mapped map(from:), so the device's values are
 *    copied back when the region ends. Right everywhere.
 *  - map_alloc: the array is mapped map(alloc:): the device gets storage,
 *    computes into it, and nothing is copied back. On a GPU, or on LLVM's
 *    host offload device (make missing-map OFFLOAD=host), the host sums
 *    the zeros it started with, and validation says WRONG (a stale
 *    result). On the host fallback the "device" array is the host array
 *    itself, so the answer is right: the bug hides until the code meets a
 *    device with memory of its own. That is the lesson: offload code is
 *    only tested where it offloads (`--require-device`, OFFLOAD=host).
 * Without memory for the array a variant returns 0, which validation
 * rejects.
 */
#include "missing_map.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Sum of terms[0 .. n) on the host, in order. */
static double host_sum(const double *terms, int64_t n)
{
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++)
        sum += terms[i];
    return sum;
}

double pi_map_from(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    const double h = 1.0 / (double)steps;
    double *terms = calloc((size_t)steps, sizeof *terms);
    int on_host = 1;
    *where = SL_RAN_HOST_FALLBACK;
    if (terms == NULL)
        return 0.0;
#pragma omp target teams distribute parallel for map(from: terms[0:steps]) \
    map(tofrom: on_host)
    for (int64_t i = 0; i < steps; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        double x = ((double)i + 0.5) * h;
        terms[i] = 4.0 / (1.0 + x * x);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
    double pi = h * host_sum(terms, steps);
    free(terms);
    return pi;
}

double pi_map_alloc(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    const double h = 1.0 / (double)steps;
    double *terms = calloc((size_t)steps, sizeof *terms);
    int on_host = 1;
    *where = SL_RAN_HOST_FALLBACK;
    if (terms == NULL)
        return 0.0;
    /* The bug: alloc, not from. */
#pragma omp target teams distribute parallel for map(alloc: terms[0:steps]) \
    map(tofrom: on_host)
    for (int64_t i = 0; i < steps; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        double x = ((double)i + 0.5) * h;
        terms[i] = 4.0 / (1.0 + x * x);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
    double pi = h * host_sum(terms, steps);
    free(terms);
    return pi;
}
