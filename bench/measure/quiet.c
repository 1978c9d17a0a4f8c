/* quiet.c - other processes' CPU time during a measurement (quiet.h). */
#define _DEFAULT_SOURCE
#include "quiet.h"

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sample.h"

/* Busy CPU-seconds of all CPUs from /proc/stat's first line: user, nice,
 * system, irq, softirq and steal (guest time is already inside user).
 * Returns -1 when it cannot be read. */
static double all_busy_seconds(void)
{
    static long ticks_per_second;
    if (ticks_per_second == 0)
        ticks_per_second = sysconf(_SC_CLK_TCK);
    FILE *f = fopen("/proc/stat", "r");
    if (f == NULL || ticks_per_second <= 0) {
        if (f)
            fclose(f);
        return -1.0;
    }
    unsigned long long user, nice, system, idle, iowait, irq, softirq, steal = 0;
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice,
                   &system, &idle, &iowait, &irq, &softirq, &steal);
    fclose(f);
    if (n < 7)
        return -1.0;
    return (double)(user + nice + system + irq + softirq + steal) / (double)ticks_per_second;
}

/* The same over the CPUs i with on[i] set, from /proc/stat's "cpuN" lines. */
static double busy_seconds_on(const unsigned char *on, int n)
{
    long ticks_per_second = sysconf(_SC_CLK_TCK);
    FILE *f = fopen("/proc/stat", "r");
    if (f == NULL || ticks_per_second <= 0) {
        if (f)
            fclose(f);
        return -1.0;
    }
    char line[512];
    unsigned long long sum = 0;
    int seen = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        int cpu;
        unsigned long long user, nice, system, idle, iowait, irq, softirq, steal = 0;
        if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &user, &nice,
                   &system, &idle, &iowait, &irq, &softirq, &steal) < 8 ||
            cpu < 0 || cpu >= n || !on[cpu])
            continue;
        sum += user + nice + system + irq + softirq + steal;
        seen++;
    }
    fclose(f);
    return seen ? (double)sum / (double)ticks_per_second : -1.0;
}

static double self_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1.0;
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

void sl_quiet_mark_now(sl_quiet_mark *m)
{
    m->wall = sl_now();
    m->all_busy = all_busy_seconds();
    m->self = self_seconds();
    m->ok = m->all_busy >= 0.0 && m->self >= 0.0;
}

void sl_quiet_mark_on(sl_quiet_mark *m, const unsigned char *on, int n)
{
    m->wall = sl_now();
    m->all_busy = busy_seconds_on(on, n);
    m->self = self_seconds();
    m->ok = m->all_busy >= 0.0 && m->self >= 0.0;
}

double sl_quiet_others(const sl_quiet_mark *from, const sl_quiet_mark *to)
{
    if (!from->ok || !to->ok)
        return -1.0;
    double others = (to->all_busy - from->all_busy) - (to->self - from->self);
    /* Our own time is exact and the ticks are not: a quiet window can come
     * out a little below zero. */
    return others > 0.0 ? others : 0.0;
}

int sl_quiet_disturbed(double others, double wall)
{
    return others > SL_BUSY_MIN_SECONDS && wall > 0.0 && others > SL_BUSY_CORES * wall;
}
