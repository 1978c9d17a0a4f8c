/* ending.c - a bench run's last lines and exit code (ending.h). */
#include "ending.h"

#include "cli.h"
#include "exitcodes.h"
#include "report.h"
#include "speedlab_config.h"

int sl_print_ending(FILE *out, const sl_ending *e)
{
    fprintf(out, "report: %s/index.html and summary.md (also %s/latest)\n", e->final, e->base);
    char install[96];
    sl_install_hint(install, sizeof install, "gnuplot-nox", "gnuplot");
    if (e->plots == 3) {
        fprintf(out, "plots: gnuplot is not installed, so the data is written but not "
                "plotted; to get it: %s, then run: sh %s/plots/plot.sh %s\n",
                install, SPEEDLAB_SOURCE_DIR, e->final);
    } else if (e->plots == SL_PLOTS_INTERRUPTED) {
        fprintf(out, "interrupted by signal %d while plotting: the data and the report are "
                "complete, some figures are not; draw them with: sh %s/plots/plot.sh %s; "
                "exit code %d\n", e->sig_now, SPEEDLAB_SOURCE_DIR, e->final, 128 + e->sig_now);
        return 128 + e->sig_now;
    } else if (e->plots > 0) {
        fprintf(out, "plots: gnuplot failed (see above); the data files are complete\n");
    }
    if (e->sig && e->late) {
        fprintf(out, "interrupted by signal %d while waiting for the history: the run is "
                "complete in its folder, not in the history; exit code %d\n", e->sig,
                128 + e->sig);
        return 128 + e->sig;
    }
    if (e->sig) {
        fprintf(out, "interrupted by signal %d: what was measured is written and marked "
                "interrupted; exit code %d\n", e->sig, 128 + e->sig);
        return 128 + e->sig;
    }
    if (e->invalid) {
        fprintf(out, "%zu configuration(s) failed validation: see above; exit code 3\n",
                e->invalid);
        return SL_EXIT_INVALID;
    }
    return SL_EXIT_OK;
}
