/* quiet.c - other processes' CPU time during a measurement (quiet.h). */
#define _DEFAULT_SOURCE
#include "quiet.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "platform.h"
#include "sample.h"

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
    m->all_busy = sl_busy_cpu_seconds(on, n);
    m->self = self_seconds();
    m->ok = m->all_busy >= 0.0 && m->self >= 0.0;
    m->nthreads = sl_thread_cpu_seconds(m->tid, m->thread_cpu, SL_QUIET_THREADS);
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

double sl_quiet_busiest(const sl_quiet_mark *from, const sl_quiet_mark *to)
{
    if (from->nthreads < 0 || to->nthreads <= 0)
        return -1.0;
    double most = 0.0;
    for (int i = 0; i < to->nthreads; i++) {
        double before = 0.0;  /* a thread started in between ran from 0 */
        for (int j = 0; j < from->nthreads; j++)
            if (from->tid[j] == to->tid[i])
                before = from->thread_cpu[j];
        if (to->thread_cpu[i] - before > most)
            most = to->thread_cpu[i] - before;
    }
    return most;
}

int sl_quiet_stalled(double self, double wall)
{
    return self >= 0.0 && wall - self > SL_BUSY_MIN_SECONDS && self < SL_STALL_SHARE * wall;
}

int sl_quiet_disturbed(double others, double wall)
{
    return others > SL_BUSY_MIN_SECONDS && wall > 0.0 && others > SL_BUSY_CORES * wall;
}

int sl_quiet_too_short(const sl_quiet_mark *from)
{
    return sl_now() - from->wall < SL_QUIET_MIN_WINDOW;
}
