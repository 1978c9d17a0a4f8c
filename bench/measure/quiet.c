/* quiet.c - other processes' CPU time during a measurement (quiet.h). */
#define _DEFAULT_SOURCE
#include "quiet.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sample.h"

/* Busy CPU-seconds from /proc/stat: user, nice, system, irq, softirq and
 * steal (guest time is already inside user). With on == NULL, all CPUs
 * (the first line, "cpu"); else the CPUs i < n with on[i] set (the "cpuN"
 * lines). Returns -1 when it cannot be read. */
static double busy_seconds(const unsigned char *on, int n)
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
    char line[512];
    unsigned long long sum = 0;
    int seen = 0;
    while (fgets(line, sizeof line, f) != NULL && strncmp(line, "cpu", 3) == 0) {
        int cpu = -1;
        unsigned long long user, nice, system, idle, iowait, irq, softirq, steal = 0;
        const char *fields = line + 3;
        if (on != NULL && (*fields < '0' || *fields > '9' || sscanf(fields, "%d", &cpu) != 1))
            continue;  /* the all-CPUs line */
        if (on == NULL && *fields != ' ')
            break;     /* past the all-CPUs line */
        fields += strcspn(fields, " ");
        if (sscanf(fields, "%llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system,
                   &idle, &iowait, &irq, &softirq, &steal) < 7 ||
            (on != NULL && (cpu < 0 || cpu >= n || !on[cpu])))
            continue;
        sum += user + nice + system + irq + softirq + steal;
        seen++;
        if (on == NULL)
            break;
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

void sl_quiet_mark_on(sl_quiet_mark *m, const unsigned char *on, int n)
{
    m->wall = sl_now();
    m->all_busy = busy_seconds(on, n);
    m->self = self_seconds();
    m->ok = m->all_busy >= 0.0 && m->self >= 0.0;
}

void sl_quiet_mark_now(sl_quiet_mark *m)
{
    sl_quiet_mark_on(m, NULL, 0);
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

double sl_quiet_self(const sl_quiet_mark *from, const sl_quiet_mark *to)
{
    return from->ok && to->ok ? to->self - from->self : -1.0;
}

int sl_quiet_stalled(double self, double wall)
{
    return self >= 0.0 && wall - self > SL_BUSY_MIN_SECONDS && self < SL_STALL_SHARE * wall;
}

int sl_quiet_disturbed(double others, double wall)
{
    return others > SL_BUSY_MIN_SECONDS && wall > 0.0 && others > SL_BUSY_CORES * wall;
}
