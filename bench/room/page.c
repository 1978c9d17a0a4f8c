/* page.c - the room's page and console view (page.h). */
#define _DEFAULT_SOURCE
#include "page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "atomic_file.h"
#include "html.h"
#include "verdict.h"

/* A nickname in a Markdown table cell: the characters the Markdown
 * subset acts on become look-alikes; HTML is escaped later, by html.c. */
static void cell(FILE *f, const char *nick)
{
    for (const char *c = nick; *c; c++)
        fputc(*c == '|' ? '/' : *c == '`' ? '\'' : *c == '*' ? '+' : *c == '[' ? '(' :
              *c == ']' ? ')' : *c == '!' ? '.' : *c, f);
}

static const char *hint_words(const char *name)
{
    for (int k = SL_WRONG_CRASHED; k < SL_WRONG_CLASSES; k++)
        if (strcmp(name, sl_wrong_class_name((sl_wrong_class)k)) == 0)
            return sl_wrong_class_words((sl_wrong_class)k);
    return name;
}

static void states_table(FILE *f, const sl_room_view *v)
{
    fprintf(f, "## The room: %d participant(s)\n\n| lesson | step |", v->people);
    for (int s = 0; s < SL_ROOM_STATES; s++)
        fprintf(f, " %s |", sl_room_state_words((sl_room_state)s));
    fprintf(f, "\n|--:|---|");
    for (int s = 0; s < SL_ROOM_STATES; s++)
        fprintf(f, "--:|");
    fprintf(f, "\n");
    for (size_t i = 0; i < v->nsteps; i++) {
        const sl_room_step *st = &v->steps[i];
        fprintf(f, "| %d | %s %s |", st->lesson, st->kernel, st->variant);
        for (int s = 0; s < SL_ROOM_STATES; s++)
            fprintf(f, " %d |", st->count[s]);
        fprintf(f, "\n");
    }
}

static void stuck_table(FILE *f, const sl_room_view *v)
{
    fprintf(f, "\n## Stuck (the same state over runs)\n\n");
    if (v->nstuck == 0) {
        fprintf(f, "Nobody is stuck.\n");
        return;
    }
    fprintf(f, "| participant | step | state | for | runs |\n|---|---|---|--:|--:|\n");
    for (size_t i = 0; i < v->nstuck; i++) {
        const sl_room_stuck *s = &v->stuck[i];
        fprintf(f, "| ");
        cell(f, s->nickname);
        fprintf(f, " | %s %s | %s%s%s%s | %.0f min | %d |\n", v->steps[s->step].kernel,
                v->steps[s->step].variant, sl_room_state_words((sl_room_state)s->state),
                s->hint[0] ? " (" : "", s->hint[0] ? hint_words(s->hint) : "",
                s->hint[0] ? ")" : "", s->minutes, s->runs);
    }
}

static void room_tables(FILE *f, const sl_room_view *v, int top)
{
    fprintf(f, "\n## Commonest mistakes\n\n");
    if (v->nmistakes == 0)
        fprintf(f, "No wrong answers now.\n");
    else
        fprintf(f, "| mistake | participants |\n|---|--:|\n");
    for (size_t i = 0; i < v->nmistakes; i++)
        fprintf(f, "| %s | %d |\n", hint_words(v->mistakes[i].hint), v->mistakes[i].count);
    fprintf(f, "\n## Speedups per CPU family\n\nEach one's best CPU rung (GPU rows left out)."
            "\n\n| CPU family | participants | median best speedup |\n|---|--:|--:|\n");
    for (size_t i = 0; i < v->nfamilies; i++) {
        fprintf(f, "| %s | %d | ", v->families[i].family, v->families[i].people);
        if (v->families[i].median_best > 0.0)
            fprintf(f, "%.1fx |\n", v->families[i].median_best);
        else
            fprintf(f, "no CPU rung right yet |\n");
    }
    fprintf(f, "\n## Leaderboard: %% of the solution's speed, on each one's own machine "
               "(top %d)\n\n", top);
    if (v->nleaders == 0)
        fprintf(f, "No right answer timed beside its solution yet.\n");
    else
        fprintf(f, "Each participant's best right step, timed side by side with the solution "
                   "on their own machine, so that neither the machine nor how busy it was "
                   "counts; a rank like 2-4 is shared by every run whose interval overlaps.\n\n"
                   "| rank | participant | %% of the solution [interval] | step | CPU family |\n"
                   "|--:|---|--:|---|---|\n");
    for (size_t i = 0; i < v->nleaders && (int)i < top; i++) {
        const sl_room_leader *l = &v->leaders[i];
        if (l->rank_from == l->rank_to)
            fprintf(f, "| %d | ", l->rank_from);
        else
            fprintf(f, "| %d-%d | ", l->rank_from, l->rank_to);
        cell(f, l->nickname);
        fprintf(f, " | %.0f%% [%.0f, %.0f] | %s %s | %s |\n", l->pct, l->low, l->high,
                v->steps[l->step].kernel, v->steps[l->step].variant, l->family);
    }
}

int sl_room_figure_data(const char *dir, const sl_room_view *v)
{
    char path[SL_PATH_BUF];
    if (sl_path_join(path, sizeof path, dir, "run.gp") != 0 ||
        sl_atomic_write(path, "machine = \"speedlab room\"\n") != 0)
        return -1;
    sl_atomic_file af;
    if (sl_path_join(path, sizeof path, dir, "room-states.dat") != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "step");
    for (int s = 0; s < SL_ROOM_STATES; s++)
        fprintf(af.fp, "\t\"%s\"", sl_room_state_words((sl_room_state)s));
    fprintf(af.fp, "\n");
    for (size_t i = 0; i < v->nsteps; i++) {
        fprintf(af.fp, "\"%s %s\"", v->steps[i].kernel, v->steps[i].variant);
        for (int s = 0; s < SL_ROOM_STATES; s++)
            fprintf(af.fp, "\t%d", v->steps[i].count[s]);
        fprintf(af.fp, "\n");
    }
    return sl_atomic_commit(&af);
}

char *sl_room_markdown(const sl_room_view *v, int with_stuck, int top, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (f == NULL)
        return NULL;
    states_table(f, v);
    fprintf(f, "\n![Each step's participants by state](room-states.png)\n");
    if (with_stuck)
        stuck_table(f, v);
    room_tables(f, v, top);
    fclose(f);
    return text;
}

int sl_room_pages(const char *dir, const sl_room_view *v, int top, int refresh_s)
{
    static const char *const names[2] = { "room.html", "instructor.html" };
    for (int stuck = 0; stuck < 2; stuck++) {
        size_t len;
        char *md = sl_room_markdown(v, stuck, top, &len), path[SL_PATH_BUF];
        int rc = md && sl_path_join(path, sizeof path, dir, names[stuck]) == 0
                     ? sl_html_page_every(path, "speedlab room", md, len, dir, refresh_s) : -1;
        free(md);
        if (rc != 0)
            return -1;
    }
    return 0;
}
