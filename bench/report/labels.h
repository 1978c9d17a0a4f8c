/* labels.h - how tables and plots name a configuration: one wording for
 * the variant, the threads and where it ran, wherever it is shown. */
#ifndef SPEEDLAB_LABELS_H
#define SPEEDLAB_LABELS_H

#include <stddef.h>

#include "suite.h"

/* A configuration's variant as tables show it: "simd", "threads" (the
 * schedule its own pragma says), or "threads, static" for a sweep point. */
void sl_config_label(const sl_config *c, char *out, size_t len);

/* The medians' interval as the tables name it: "95% CI" (6 repetitions or
 * more), the coverage fewer repetitions give ("75% CI" from 3, "50% CI"
 * from 2), or "no interval" when a configuration had 1. */
void sl_interval_label(const sl_suite *s, char *out, size_t len);

/* A configuration's threads as tables show it: "2", "3 (oversubscribed)",
 * "1" for a variant without threads, "device's" for a gpu variant ("host
 * fallback" where it ran on the host). */
void sl_config_threads(const sl_config *c, char *out, size_t len);

/* A time as tables show it: "1.23 s", "45.6 ms", "789 µs"; "-" for none
 * (not finite). */
void sl_time_text(char *out, size_t len, double seconds);

/* A median and its interval in the median's unit: "96.68 ms [95.71, 99.09]",
 * "1.234 µs [1.2, 1.31]". */
void sl_interval_text(char *out, size_t len, double median, double low, double high);

/* A median's precision, the wider side of its interval: "±2%", "±0.4%";
 * "" when it was not timed or has no interval. */
void sl_precision_text(const sl_config *c, char *out, size_t len);

/* The same for a speedup measured in pairs (sl_config.up); "" unpaired. */
void sl_speedup_precision_text(const sl_config *c, char *out, size_t len);

/* How a configuration's place is shown: "host", "host fallback", "device". */
const char *sl_config_where(const sl_config *c);
/* Does a row name its tree beside its kernel, "<kernel> (clang-16)"? Rows of
 * another program or compiler (--import), and a run's own rows when
 * --label named them (bench_main.c). */
int sl_config_shows_tree(const sl_config *c);

#endif
