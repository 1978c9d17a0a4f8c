/* passes.c - Google Benchmark's JSON in the run folder (passes.h). */
#include "passes.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "defaults.h"
#include "gbench.h"

/* 0, or -1 (ENAMETOOLONG) when the name does not fit. */
static int pass_name(const sl_passes *p, int pass, int final, char *out, size_t len)
{
    if (final && pass == 0)
        return sl_path_format(out, len, "%s/" SL_FILE_CONTEXT, p->partial);
    if (final)
        return sl_path_format(out, len, "%s/bench-round-%d.json", p->partial, pass);
    return sl_path_format(out, len, "%s/.bench-%d.json.tmp", p->partial, pass);
}

int sl_passes_start(sl_passes *p, const char *partial, char *argv0, const sl_cli *cli,
                    char *why, size_t whylen)
{
    memset(p, 0, sizeof *p);
    why[0] = '\0';
    snprintf(p->partial, sizeof p->partial, "%s", partial);
    if (sl_path_join(p->tmp, sizeof p->tmp, partial, "." SL_FILE_CONTEXT ".tmp") != 0)
        return sl_fail(why, whylen, "the results folder's path is too long");
    snprintf(p->out_flag, sizeof p->out_flag, "--benchmark_out=%s", p->tmp);
    static char format_flag[] = "--benchmark_out_format=json";
    int gbargc = 0;
    char *gbargv[SL_MAX_GB_FLAGS + 4];
    gbargv[gbargc++] = argv0;
    for (int i = 0; i < cli->gbargc; i++)
        gbargv[gbargc++] = cli->gbargv[i];
    gbargv[gbargc++] = p->out_flag;
    gbargv[gbargc++] = format_flag;
    if (gb_initialize(&gbargc, gbargv, &p->in_a_row, why, whylen) != 0)
        return -1;
    if (gbargc > 1)
        return sl_fail(why, whylen, "Google Benchmark did not understand '%.200s'", gbargv[1]);
    return 0;
}

void sl_passes_keep(int pass, void *ctx)
{
    sl_passes *p = ctx;
    char held[SL_PATH_BUF];
    if (pass_name(p, pass, 0, held, sizeof held) == 0 && rename(p->tmp, held) == 0)
        p->npasses = pass + 1;
}

int sl_passes_publish(const sl_passes *p, int drop, char *why, size_t whylen)
{
    char held[SL_PATH_BUF], final[SL_PATH_BUF];
    unlink(p->tmp);
    for (int pass = 0; pass < p->npasses; pass++) {
        if (pass_name(p, pass, 0, held, sizeof held) != 0 ||
            pass_name(p, pass, 1, final, sizeof final) != 0)
            return sl_fail(why, whylen, "a JSON file's path in '%s' is too long", p->partial);
        if (drop)
            unlink(held);
        else if (sl_atomic_publish(held, final) != 0)
            return sl_fail(why, whylen, "cannot write '%s': %s", final, strerror(errno));
    }
    return 0;
}

void sl_passes_context(const sl_context *ctx, const char *tree)
{
    for (int i = 0; i < ctx->count; i++)
        gb_add_context(ctx->key[i], ctx->value[i]);
    gb_add_context("tree", tree);
}
