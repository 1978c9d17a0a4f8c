/* defaults.h - what a run gets when it asks for nothing, and the most it
 * may ask for: the results folder, the machine's cores (which the thread
 * lists follow), the limits every option and array shares, and the names
 * of the files a run folder holds. Each has its one owner here; programs
 * and libraries name these, never the values.
 */
#ifndef SPEEDLAB_DEFAULTS_H
#define SPEEDLAB_DEFAULTS_H

/* Where every program writes and reads runs unless --results says
 * otherwise (the GNUmakefile's RESULTS passes it on). */
#define SL_RESULTS_DEFAULT "results"

/* Repetitions above this are refused on input: more adds nothing a median
 * needs, and the per-configuration arrays stay fixed-size. */
#define SL_MAX_REPS 100

/* Repetitions the median's 95% interval needs: 6 (coverage 96.9%). */
#define SL_CI_MIN_REPS 6

/* The most schedules one run may name (--schedule, repeated). */
#define SL_MAX_SCHEDULES 8

/* The files of a run folder that more than one program reads. */
#define SL_FILE_RESULTS "results.csv"   /* one row per configuration */
#define SL_FILE_SAMPLES "samples.csv"   /* every timed repetition */
#define SL_FILE_CONTEXT "bench.json"    /* the machine and the build */
#define SL_FILE_CEILINGS "ceiling.csv"  /* the roofs the probes measured */

/* Cores this process may run on: the CPUs of its affinity mask (what SLURM
 * or taskset granted), as the OpenMP runtime counted them at start-up,
 * and no more than a cgroup CPU quota grants (platform.h's sl_cpu_quota,
 * rounded up: 1.5 cores' time counts 2). (Asking the OS later would answer
 * 1: OMP_PROC_BIND narrows the main thread's own mask to one core.) The
 * thread lists' defaults and the ceilings follow it. */
int sl_cores_available(void);

#endif
