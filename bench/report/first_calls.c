/* first_calls.c - lesson 8's compile-time section (first_calls.h). */
#include "first_calls.h"

#include <string.h>

#include "args.h"
#include "atomic_file.h"
#include "foreign.h"
#include "labels.h"

/* The first call that costs the most warm calls: what a participant pays
 * for a JIT, said once. */
static void finding(FILE *f, const sl_suite *s)
{
    const sl_first_call *worst = NULL;
    for (int i = 0; i < s->nfirst; i++) {
        const sl_first_call *c = &s->first_calls[i];
        if (c->warm > 0 && (!worst || c->first / c->warm > worst->first / worst->warm))
            worst = c;
    }
    if (!worst)
        return;
    char first[32], warm[32];
    sl_time_text(first, sizeof first, worst->first);
    sl_time_text(warm, sizeof warm, worst->warm);
    fprintf(f, "- **The first call pays for the compiler.** %s %s's first call took %s, "
            "%.0f warm calls' worth (%s each): %.0f%% of it was compiling. Time a JIT after "
            "its first call, and count that call when a program runs only once.\n\n",
            worst->kernel, worst->variant, first, worst->first / worst->warm, warm,
            worst->first > 0 ? 100.0 * worst->compile / worst->first : 0.0);
}

/* A table cell in the units the rest of the report uses (ms, µs). */
static void time_cell(FILE *f, double seconds)
{
    char t[32];
    sl_time_text(t, sizeof t, seconds);
    fprintf(f, " %s |", t);
}

void sl_first_calls_section(FILE *f, const sl_suite *s)
{
    if (s->nfirst == 0)
        return;
    fprintf(f, "\n## Compile time: where the first call goes\n\n");
    finding(f, s);
    fprintf(f, "The first call of each %s variant in its process: it compiles (the JIT's "
            "own compile events and pass timings), then runs. A warm call is the same call "
            "again, timed.", s->first_calls[0].tree);
    /* What they ran on, as the other program recorded it. */
    const char *ctx = s->first_calls_context;
    for (int first = 1; ctx && *ctx; first = 0) {
        size_t len = strcspn(ctx, "\n");
        fprintf(f, "%s%.*s", first ? " Measured with: " : "; ", (int)len, ctx);
        ctx += len + (ctx[len] == '\n');
    }
    fprintf(f, "\n\n");
    fprintf(f, "| kernel | variant | first call | compiling | lowering | typing | inlining | "
               "the call warm (threads) |\n|---|---|--:|--:|--:|--:|--:|--:|\n");
    for (int i = 0; i < s->nfirst; i++) {
        const sl_first_call *c = &s->first_calls[i];
        char warm[48] = "not timed";
        if (c->warm > 0) {
            sl_time_text(warm, sizeof warm, c->warm);
            snprintf(warm + strlen(warm), sizeof warm - strlen(warm), " (%d)",
                     c->threads ? c->threads : 1);
        }
        fprintf(f, "| %s | %s |", c->kernel, c->variant);
        time_cell(f, c->first);
        time_cell(f, c->compile);
        /* lowering, typing, inlining: sl_jit_phase's 4, 2 and 1 */
        const int shown[] = { 4, 2, 1 };
        for (int k = 0; k < 3; k++)
            if (c->functions)
                time_cell(f, c->phase[shown[k]]);
            else
                fprintf(f, " n/a |");
        fprintf(f, " %s |\n", warm);
    }
}

int sl_first_calls_write_data(const char *dir, const sl_suite *s)
{
    if (s->nfirst == 0)
        return 0;
    char name[64], path[SL_PATH_BUF];
    snprintf(name, sizeof name, "compile-%s.dat", s->first_calls[0].tree);
    if (sl_path_join(path, sizeof path, dir, name) != 0)
        return -1;
    sl_atomic_file af;
    if (sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# the first call of each variant, in seconds: compile phases, then run\n"
                   "# label");
    for (int p = 0; p < SL_JIT_PHASES; p++)
        fprintf(af.fp, "\t%s", sl_jit_phase[p]);
    fprintf(af.fp, "\tother_compile\trun\n");
    for (int i = 0; i < s->nfirst; i++) {
        const sl_first_call *c = &s->first_calls[i];
        double other = c->compile;
        fprintf(af.fp, "\"%s %s\"", c->kernel, c->variant);
        for (int p = 0; p < SL_JIT_PHASES; p++) {
            fprintf(af.fp, "\t%.5f", c->phase[p]);
            other -= c->phase[p];
        }
        fprintf(af.fp, "\t%.5f\t%.5f\n", other > 0 ? other : 0.0, c->run > 0 ? c->run : 0.0);
    }
    return sl_atomic_commit(&af);
}
