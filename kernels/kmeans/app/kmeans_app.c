/* kmeans_app.c - lesson 9's whole program: k-means as a small application
 * would write it, to be profiled before anything is optimised (step 9.1).
 *
 * usage: speedlab-kmeans-app [POINTS] [LABELS_FILE]
 *
 * It makes the kit's k-means points (kernels/kmeans/kmeans_problem.h),
 * standardises every feature (mean 0, variance 1, as a pipeline would
 * before clustering), runs Lloyd's iterations from points 0, 20, 40, ...
 * until no label changes (at most 100), reports the inertia and writes one
 * label per line (by default to results/kmeans-labels.txt: a lesson's
 * commands write nothing beside the sources). Each stage
 * is a function of its own and the program is built without inlining
 * (kernels/kmeans/kernel.cmake), so that a profiler's table shows the
 * stages as the source has them. Plain C, one thread: the ladder starts
 * from the function the profile puts on top.
 * Exit: 0, 1 out of memory or the labels file cannot be written, 2 bad
 * input.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kmeans_problem.h"

enum { MAX_ITERS = 100, FIRST_STRIDE = 20 };

static void generate(double *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        for (int f = 0; f < KMEANS_D; f++)
            x[i * KMEANS_D + f] = kmeans_point(i, f);
}

static void standardise(double *x, int64_t n)
{
    for (int f = 0; f < KMEANS_D; f++) {
        double sum = 0.0, sq = 0.0;
        for (int64_t i = 0; i < n; i++)
            sum += x[i * KMEANS_D + f];
        const double mean = sum / (double)n;
        for (int64_t i = 0; i < n; i++) {
            const double e = x[i * KMEANS_D + f] - mean;
            sq += e * e;
        }
        const double scale = sq > 0.0 ? 1.0 / sqrt(sq / (double)n) : 1.0;
        for (int64_t i = 0; i < n; i++)
            x[i * KMEANS_D + f] = (x[i * KMEANS_D + f] - mean) * scale;
    }
}

static double distance2(const double *a, const double *b)
{
    double d = 0.0;
    for (int f = 0; f < KMEANS_D; f++)
        d += (a[f] - b[f]) * (a[f] - b[f]);
    return d;
}

/* Each point's nearest centroid; how many labels changed. */
static int64_t assign(const double *x, int64_t n, const double *centroids, int32_t *labels)
{
    int64_t changed = 0;
    for (int64_t i = 0; i < n; i++) {
        int32_t best = 0;
        double best_d = distance2(x + i * KMEANS_D, centroids);
        for (int c = 1; c < KMEANS_K; c++) {
            const double d = distance2(x + i * KMEANS_D, centroids + c * KMEANS_D);
            if (d < best_d) {
                best_d = d;
                best = c;
            }
        }
        changed += labels[i] != best;
        labels[i] = best;
    }
    return changed;
}

static void update(const double *x, int64_t n, const int32_t *labels, double *centroids)
{
    double sums[KMEANS_K * KMEANS_D] = { 0 };
    int64_t counts[KMEANS_K] = { 0 };
    for (int64_t i = 0; i < n; i++) {
        counts[labels[i]]++;
        for (int f = 0; f < KMEANS_D; f++)
            sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
    }
    for (int c = 0; c < KMEANS_K; c++)
        for (int f = 0; f < KMEANS_D && counts[c] > 0; f++)
            centroids[c * KMEANS_D + f] = sums[c * KMEANS_D + f] / (double)counts[c];
}

static double inertia(const double *x, int64_t n, const int32_t *labels, const double *centroids)
{
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++)
        sum += distance2(x + i * KMEANS_D, centroids + labels[i] * KMEANS_D);
    return sum;
}

static int write_labels(const char *path, const int32_t *labels, int64_t n)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    for (int64_t i = 0; i < n; i++)
        fprintf(f, "%d\n", labels[i]);
    return fclose(f);
}

int main(int argc, char **argv)
{
    char *end = NULL;
    const int64_t n = argc > 1 ? strtoll(argv[1], &end, 10) : 100000;
    const char *out = argc > 2 ? argv[2] : "results/kmeans-labels.txt";
    if ((argc > 1 && (end == argv[1] || *end != '\0')) || n < KMEANS_K || n > KMEANS_MAX_SIZE) {
        fprintf(stderr, "speedlab-kmeans-app: POINTS must be %d to %lld\n", KMEANS_K,
                (long long)KMEANS_MAX_SIZE);
        return 2;
    }
    double *x = malloc((size_t)n * KMEANS_D * sizeof *x);
    int32_t *labels = malloc((size_t)n * sizeof *labels);
    double centroids[KMEANS_K * KMEANS_D];
    if (x == NULL || labels == NULL) {
        fprintf(stderr, "speedlab-kmeans-app: out of memory for %lld points\n", (long long)n);
        return 1;
    }
    generate(x, n);
    standardise(x, n);
    /* The first centroids: points 0, 20, 40, ... from the start of the
     * data, a common first try (and a poor one here: they fall in 8 of
     * the 32 clusters, so Lloyd's iterations have work to do). */
    for (int c = 0; c < KMEANS_K; c++)
        memcpy(centroids + c * KMEANS_D, x + (c * FIRST_STRIDE % n) * KMEANS_D,
               KMEANS_D * sizeof *x);
    /* No label yet: the first assignment changes every one. */
    memset(labels, 0xff, (size_t)n * sizeof *labels);
    int iters = 0;
    for (int64_t changed = n; changed > 0 && iters < MAX_ITERS; iters++) {
        changed = assign(x, n, centroids, labels);
        update(x, n, labels, centroids);
    }
    printf("%lld points, %d clusters, %d iterations: inertia %.6g\n", (long long)n, KMEANS_K,
           iters, inertia(x, n, labels, centroids));
    if (argc <= 2 && mkdir("results", 0777) != 0 && errno != EEXIST)
        fprintf(stderr, "speedlab-kmeans-app: cannot make results/: %s\n", strerror(errno));
    int rc = write_labels(out, labels, n);
    if (rc != 0)
        fprintf(stderr, "speedlab-kmeans-app: cannot write %s: %s\n", out, strerror(errno));
    else
        printf("labels: %s\n", out);
    free(x);
    free(labels);
    return rc != 0;
}
