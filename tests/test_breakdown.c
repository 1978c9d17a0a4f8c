/* test_breakdown.c - the GPU section of the summary (report/
 * breakdown_report.c) puts each kernel's offload rows beside its CUDA row
 * when both ran on a device at the same size, with another compiler's
 * imported row named by its label, and says nothing of CUDA where none
 * ran on a device (the host fallback, the host offload device). The suite
 * is made by hand, so the ratios are exact. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breakdown_report.h"
#include "check.h"

static const sl_problem_def image = { .name = "image", .work_unit = "pixels" };
static const sl_variant variants[] = {
    { "gpu", NULL, SL_USES_GPU, NULL, NULL, NULL },
    { "gpu_shapes", NULL, SL_USES_GPU | SL_STAGE, NULL, NULL, NULL },
    { "cuda", NULL, SL_USES_CUDA, NULL, NULL, NULL },
    { "scalar", NULL, 0, NULL, NULL, NULL },
};
static const sl_kernel kernel = { &image, variants, 4 };

/* Variant v of tree at `median` seconds, size 4096, ran `where`. */
static sl_config config(int v, const char *tree, double median, sl_where where)
{
    sl_config c;
    memset(&c, 0, sizeof c);
    c.kernel = &kernel;
    c.variant = &variants[v];
    c.tree = tree;
    c.problem.size = 4096;
    c.valid = 1, c.timed = 6, c.median = median, c.rate = 1.0 / median;
    c.outcome.where = where;
    return c;
}

static char *summary(const sl_suite *s)
{
    sl_breakdown b;
    memset(&b, 0, sizeof b);
    b.wanted = 1;
    b.start_where = SL_RAN_DEVICE;
    snprintf(b.device, sizeof b.device, "a GPU");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    sl_breakdown_summary(f, &b, s);
    fclose(f);
    return text;
}

int main(void)
{
    /* CUDA 2 ms; GCC's gpu 24 ms and gpu_shapes 3 ms; clang's gpu_shapes
     * 2.5 ms (imported, its tree its label); the scalar row is no
     * offload row; a gpu row at another size is not compared. */
    sl_config c[6] = {
        config(2, "solutions", 0.002, SL_RAN_DEVICE),
        config(0, "solutions", 0.024, SL_RAN_DEVICE),
        config(1, "solutions", 0.003, SL_RAN_DEVICE),
        config(1, "clang-19", 0.0025, SL_RAN_DEVICE),
        config(3, "solutions", 0.5, SL_RAN_HOST),
        config(0, "solutions", 0.001, SL_RAN_DEVICE),
    };
    c[3].foreign = 1;
    c[5].problem.size = 1024;
    sl_suite s = { .configs = c, .count = 6 };
    char *text = summary(&s);
    CHECK_CONTAINS(text, "- image against CUDA (cuda, 2 ms; same size, same device): gpu "
                         "12.00x its time (8% of its rate), gpu_shapes 1.50x its time (67% "
                         "of its rate), gpu_shapes (clang-19) 1.25x its time (80% of its "
                         "rate).\n");
    CHECK_CONTAINS(text, "\n- crossover");
    free(text);

    /* No CUDA row on a device: not a word of CUDA. */
    c[0].outcome.where = SL_RAN_HOST_FALLBACK;
    text = summary(&s);
    CHECK(strstr(text, "against CUDA") == NULL);
    free(text);
    /* A CUDA row with no offload row on the device beside it says so. */
    c[0].outcome.where = SL_RAN_DEVICE;
    for (int i = 1; i < 6; i++)
        c[i].outcome.where = SL_RAN_HOST_FALLBACK;
    text = summary(&s);
    CHECK_CONTAINS(text, "same device): no offload row ran on the device at that size.\n");
    free(text);
    return CHECK_DONE();
}
