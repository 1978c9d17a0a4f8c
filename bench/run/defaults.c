/* defaults.c - the machine's share of a run's defaults (defaults.h). */
#include "defaults.h"

#include <omp.h>

int sl_cores_available(void)
{
    return omp_get_num_procs();
}
