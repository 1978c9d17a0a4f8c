/* region.c - a target region with a reduction, as in the gpu variants: if
 * this links and runs with a set of offload flags, the kernels will too. */
#include <omp.h>

int probe_region(void)
{
    double sum = 0.0;
    int on_host = 1;
#pragma omp target teams distribute parallel for reduction(+:sum) \
    map(tofrom: sum, on_host)
    for (int i = 0; i < 1000; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        sum += i;
    }
    return sum == 499500.0 && on_host >= 0 ? 0 : 1;
}
