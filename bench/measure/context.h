/* context.h - what a run's numbers depend on: build, machine, threads,
 * binding and where the gpu variants ran. Goes into the Google Benchmark
 * JSON context block and the summary. */
#ifndef SPEEDLAB_CONTEXT_H
#define SPEEDLAB_CONTEXT_H

#include "suite.h"

#define SL_CONTEXT_MAX 32

typedef struct sl_context {
    int count;
    char key[SL_CONTEXT_MAX][40];
    char value[SL_CONTEXT_MAX][320];
} sl_context;

/* Collect the context for a planned suite. */
void sl_context_collect(sl_context *ctx, const sl_suite *s, const int *threads,
                        int nthreads);

/* The value for key, or "" when there is none. */
const char *sl_context_get(const sl_context *ctx, const char *key);


/* A SLURM job that asked for more CPUs per task than this process may
 * use (since Slurm 22.05, srun does not pass --cpus-per-task on to a job
 * step): 1 with the warning and its fix in out, else 0. */
int sl_slurm_cpu_warning(char *out, size_t len);

#endif
