/* cli.h - the options the bench and the runner share, parsed strictly.
 *
 * Every value is checked before anything runs; a bad one gets one line on
 * stderr naming the value and what is allowed, and SL_EXIT_USAGE.
 */
#ifndef SPEEDLAB_CLI_H
#define SPEEDLAB_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "args.h"
#include "defaults.h"

/* The most re-measurements --retry-busy allows: each can cost as much as
 * the configurations it repeats. */
#define SL_MAX_RETRY_BUSY 10

/* The most --benchmark_* flags one run passes through. */
#define SL_MAX_GB_FLAGS 16

/* The bench's --label: a tree name (foreign.h keeps 32 bytes of one). */
#define SL_LABEL_MAX 32
#define SL_LABEL_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"

/* --import files: lesson 8's numba rows and lesson 6's MPI grid, and room. */
#define SL_MAX_IMPORTS 4

typedef struct sl_cli {
    const char *kernel;          /* NULL: all */
    const char *variant;         /* NULL: all */
    const char *tree;            /* runner: exercises, solutions or both */
    const char *results;         /* base folder for run folders, history.sqlite
                                    and pictures (SL_RESULTS_DEFAULT) */
    const char *import[SL_MAX_IMPORTS]; /* bench: other programs' results.csv
                                    (numba's, MPI's), whose rows join the
                                    report (foreign.h) */
    int nimport;
    int64_t size;                /* 0: the kernel's default */
    sl_kernel_size sizes[SL_MAX_KERNEL_SIZES];  /* --size KERNEL=N, which */
    int nsizes;                  /* win over size for their kernel */
    int max_iter;                /* image kernels; 0: the kernel's default */
    uint64_t seed;               /* sampling kernels: the generator's seed */
    sl_schedule schedules[SL_MAX_SCHEDULES];
    int nschedules;              /* 0: the default sweep */
    int threads[SL_MAX_THREAD_COUNTS];
    int nthreads;                /* the list given, or the default list */
    int threads_given;           /* --threads was on the command line */
    int reps;                    /* 0: the default */
    double min_time;             /* 0: the default */
    int min_time_from_env;       /* min_time is $SPEEDLAB_MIN_TIME's */
    int quick;
    int plots;                   /* bench: run plots/plot.sh */
    int no_weak;                 /* bench: skip the weak-scaling study */
    int no_baseline;             /* bench: the named variants only, no
                                    scalar baseline (rows to import) */
    int verbose;                 /* print every configuration and section */
    int retry_busy;              /* rounds that replace disturbed
                                    repetitions; -1: the default */
    double budget;               /* bench: minutes for the whole run; 0: no
                                    limit; -1: the default */
    double target;               /* bench: the median's interval, +-percent;
                                    0: fixed repetitions; -1: the default */
    int require_device;          /* gpu variants must reach a device (exit 4) */
    int all;                     /* runner: lesson 5's gpu stages too */
    int ranks[SL_MAX_THREAD_COUNTS]; /* mpi: the ranks of the grid */
    int nranks;
    int check;                   /* mpi: validate only, nothing timed */
    double timeout;              /* mpi: seconds a launch may run; 0: default */
    int bind;                    /* mpi: -1 auto, 0 none, 1 core */
    const char *label[2];        /* compare: the two runs' names; NULL: A, B;
                                    bench: label[0], its rows' tree (--label) */
    const char *word[2];         /* bare words: the runner's lesson, compare's
                                    two run folders */
    int nwords;
    int import_folders;          /* history: add run folders it lacks */
    int progress;                /* history: the participant's afternoon */
    double min_change;           /* history: a step's least change, percent;
                                    -1: the default */
    const char *adopt, *commit;  /* history: a run folder, as a commit's */
    const char *unbuilt;         /* history: a commit that did not build */
    int port;                    /* room: the port to listen on */
    const char *code, *folder;   /* room: its code (NULL: random), a shared
                                    folder to take runs from */
    double stuck;                /* room: minutes on one state; -1: default */
    int top;                     /* room: the leaderboard's length */
    int once;                    /* room: import, write, print, exit */
    int gbargc;                  /* --benchmark_* flags, passed through */
    char *gbargv[SL_MAX_GB_FLAGS];
} sl_cli;

/* Which program parses: each option says which take it (cli.c's table). */
#define SL_CLI_BENCH 1u
#define SL_CLI_RUNNER 2u
#define SL_CLI_BOTH (SL_CLI_BENCH | SL_CLI_RUNNER)
#define SL_CLI_MPI 4u                /* lesson 6's driver, speedlab-mpi-<tree> */
#define SL_CLI_COMPARE 8u            /* speedlab-compare */
#define SL_CLI_HISTORY 16u           /* speedlab-history */
#define SL_CLI_ROOM 32u              /* speedlab-room, the room server */

/* --min-time's stand-in when not given (the test suite's; cli.c says why). */
#define SL_MIN_TIME_ENV "SPEEDLAB_MIN_TIME"

/* What a progress line says of the timing that SL_MIN_TIME_ENV set: ""
 * when it set none, else its name, and, when --retry-busy is 0 (its
 * default then), that disturbed repetitions are not timed again. */
const char *sl_cli_min_time_source(const sl_cli *cli);

/* Parse argv[first..argc) as program's options; up to max_words bare words
 * go to cli->word (the runner's lesson, compare's run folders). --help
 * prints intro, the options from the table, then outro. Returns 0, or -1
 * after printing the reason; 1 when --help was printed. */
int sl_cli_parse(sl_cli *cli, int argc, char **argv, int first, int max_words,
                 unsigned program, const char *intro, const char *outro);

/* Print "program: message" on stderr, and return: the caller picks the
 * exit code. */
void sl_print_error(const char *program, const char *message);

/* Print "program: warning: message" on stderr: something the run did
 * without, which did not fail it. */
void sl_print_warning(const char *program, const char *message);

/* Is an executable named program in one of the folders of path (a
 * PATH-style list; NULL: none)? */
int sl_on_path(const char *path, const char *program);

/* How to get a missing package on this machine: "apt-get install DEB"
 * where apt is there and this is root, or "sudo apt-get install DEB"
 * where this user is in a group sudo is given to, else
 * Homebrew's, else a user's ways (module, Spack, conda) to get OTHER. */
void sl_install_hint(char *out, size_t len, const char *deb, const char *other);

#endif
