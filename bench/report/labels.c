/* labels.c - how tables and plots name a configuration (labels.h). */
#include "labels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The unit a time is shown in: its scale and name. */
static double time_unit(double s, const char **name)
{
    *name = s >= 1.0 ? "s" : s >= 1e-3 ? "ms" : "µs";
    return s >= 1.0 ? 1.0 : s >= 1e-3 ? 1e3 : 1e6;
}

void sl_time_text(char *out, size_t len, double s)
{
    const char *unit;
    double scale = time_unit(s, &unit);
    if (!isfinite(s))
        snprintf(out, len, "-");
    else
        snprintf(out, len, "%.3g %s", s * scale, unit);
}

void sl_interval_text(char *out, size_t len, double median, double low, double high)
{
    const char *unit;
    double scale = time_unit(median, &unit);
    snprintf(out, len, "%.4g %s [%.4g, %.4g]", median * scale, unit, low * scale,
             high * scale);
}

const char *sl_config_where(const sl_config *c)
{
    return sl_where_name(c->outcome.where);
}

int sl_config_shows_tree(const sl_config *c)
{
    return c->foreign || (strcmp(c->tree, "solutions") != 0 && strcmp(c->tree, "exercises") != 0);
}

void sl_config_label(const sl_config *c, char *out, size_t len)
{
    const char *fallback = c->variant->flags & SL_FALLBACK ? " (fallback)" : "";
    snprintf(out, len, "%s%s", c->variant->name, fallback);
    /* The default is the variant's own pragma: its name says it all. */
    if ((c->variant->flags & SL_USES_SCHEDULE) && c->problem.schedule.kind != SL_SCHED_DEFAULT) {
        char sched[32];
        sl_schedule_name(c->problem.schedule, sched, sizeof sched);
        snprintf(out, len, "%s%s, %s", c->variant->name, fallback, sched);
    }
}

void sl_config_threads(const sl_config *c, char *out, size_t len)
{
    if (sl_config_short_of_threads(c))
        snprintf(out, len, "%d (%d asked)", c->threads_used, c->problem.threads);
    else if (c->threads_used > 0)
        snprintf(out, len, "%d%s", c->threads_used,
                 c->oversubscribed ? " (oversubscribed)" : "");
    else
        /* A gpu variant's threads are the device's, or on the host
         * fallback the runtime's: neither is a count the run chose. */
        snprintf(out, len, c->outcome.where == SL_RAN_HOST_FALLBACK ? "host fallback"
                           : sl_device_is_host() ? "host offload" : "device's");
}

void sl_interval_label(const sl_suite *s, char *out, size_t len)
{
    double level = 1.0;
    int fewest = 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!c->valid || c->timed < 1)
            continue;
        if (fewest == 0 || c->kept < fewest)
            fewest = c->kept;
        if (c->ci_level < level)
            level = c->ci_level;
    }
    if (fewest == 1)
        snprintf(out, len, "no interval: 1 repetition");
    else if (level >= 0.95)
        snprintf(out, len, "95%% CI");
    else
        snprintf(out, len, "%.0f%% CI", 100.0 * level);
}

static void pm_text(double precision, char *out, size_t len)
{
    double pct = 100.0 * precision;
    snprintf(out, len, pct < 0.05 ? "\u00b1<0.1%%" : pct < 0.95 ? "\u00b1%.1f%%" :
             "\u00b1%.0f%%", pct);
}

void sl_precision_text(const sl_config *c, char *out, size_t len)
{
    if (!c->valid || c->timed < 1 || c->kept < 2 || !(c->precision > 0.0))
        snprintf(out, len, "%s", "");
    else
        pm_text(c->precision, out, len);
}

void sl_speedup_precision_text(const sl_config *c, char *out, size_t len)
{
    if (!c->valid || c->up.n < 2 || !(c->up_precision > 0.0))
        snprintf(out, len, "%s", "");
    else
        pm_text(c->up_precision, out, len);
}
