/* main.c - calls the probe's target region from another file. */
#include "omp_leftovers.h"

int probe_region(void);

int main(void)
{
    int rc = probe_region();
    sl_forget_device_image_files(0);
    return rc;
}
