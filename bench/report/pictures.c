/* pictures.c - a lesson's picture folder (pictures.h). */
#include "pictures.h"

#include <errno.h>
#include <string.h>

#include "args.h"
#include "atomic_file.h"
#include "cli.h"
#include "evidence.h"
#include "results.h"
#include "speedlab_config.h"

int sl_pictures_open(sl_run_dir *run, const char *results, const char *kernel, char *why,
                     size_t whylen)
{
    char base[SL_PATH_BUF];
    if (strlen(kernel) > SL_SUBFOLDER_MAX ||
        sl_path_join(base, sizeof base, results, kernel) != 0)
        return sl_fail(why, whylen, "--results: path too long: %zu > %d characters",
                       strlen(results), SL_PATH_LIMIT);
    return sl_run_dir_create(run, base, why, whylen);
}

int sl_pictures_publish(const sl_suite *s, sl_run_dir *run, const char *kernel, int plots,
                        FILE *out, char *why, size_t whylen)
{
    char path[SL_PATH_BUF], text[256];
    const char *base = run->base;
    snprintf(text, sizeof text, "lanes = %d\ncores = %d\nmachine = \"\"\n",
             SPEEDLAB_SIMD_LANES, sl_cores_available());
    if (sl_path_join(path, sizeof path, run->partial, "run.gp") != 0 ||
        sl_atomic_write(path, text) != 0 || sl_write_pictures(run->partial, s) != 0) {
        sl_fail(why, whylen, "cannot write the pictures in '%s': %s", run->partial,
                strerror(errno));
        sl_run_dir_discard(run);
        return -1;
    }
    int drawn = plots ? sl_run_plots(run->partial) : -1;
    if (sl_run_dir_publish(run, why, whylen) != 0)
        return -1;
    int wrong = 0;
    for (size_t i = 0; i < s->count; i++)
        wrong |= s->configs[i].counts != NULL;
    char install[96];
    sl_install_hint(install, sizeof install, "gnuplot-nox", "gnuplot");
    if (drawn == 3) {
        fprintf(out, "\npictures: gnuplot is not installed, so %s/latest/ has the pictures' "
                "data but no pictures; to get it: %s\n", base, install);
        return 0;
    }
    /* A full disk while plotting, a failing gnuplot: name no picture that
     * is not there. */
    if (drawn > 0)
        return sl_fail(why, whylen, "the pictures could not be drawn (see above); their data "
                       "is in %s/latest/", base);
    fprintf(out, "\npictures: %s/latest/ (image-%s.png%s)\n", base, kernel,
            wrong ? ", and a diff-*.png for each wrong variant: red marks its wrong "
                    "pixels" : "");
    return 0;
}
