/* defaults.c - the machine's share of a run's defaults (defaults.h). */
#include "defaults.h"

#include <math.h>
#include <omp.h>

#include "platform.h"

int sl_cores_available(void)
{
    static int cores;        /* asked once: sysfs is read, and callers loop */
    if (cores == 0) {
        int procs = omp_get_num_procs();
        double quota = sl_cpu_quota();
        int share = quota > 0.0 ? (int)ceil(quota) : 0;
        cores = share > 0 && share < procs ? share : procs;
    }
    return cores;
}
