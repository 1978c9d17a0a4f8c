/* doctor_main.c - `make doctor`: one screen of what this machine is and
 * what it hides, each finding with what it means for the numbers
 * (measure/doctor.h). Exit 0; 2 on a bad option.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"

int main(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: speedlab-doctor\nWhat this machine is and what it hides from the "
               "numbers (make doctor).\n");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "speedlab-doctor: '%.40s': it takes no options (see --help)\n", argv[1]);
        return 2;
    }
    const sl_doctor_build built = { SL_BUILT_ROOM, SL_BUILT_MPI };
    sl_finding f[SL_MAX_FINDINGS];
    size_t n = sl_doctor(f, SL_MAX_FINDINGS, getenv("PATH"), &built);
    int hidden = 0;
    for (size_t i = 0; i < n; i++) {
        printf("%-13s %s\n", f[i].topic, f[i].found);
        if (f[i].means[0])
            printf("%-13s %s %s\n", "", f[i].hides ? "!" : "-", f[i].means);
        hidden += f[i].hides;
    }
    printf("\n%d finding(s) change what a number means (marked !).\n", hidden);
    return 0;
}
