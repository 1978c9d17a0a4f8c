/* view.c - the room's rules over its records (view.h). */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The step of r, added when new (steps in the order they first arrive,
 * then sorted by lesson, stably). -1 when there are too many. */
static int step_of(sl_room_view *v, const sl_room_record *r)
{
    for (size_t i = 0; i < v->nsteps; i++)
        if (strcmp(v->steps[i].kernel, r->kernel) == 0 &&
            strcmp(v->steps[i].variant, r->variant) == 0)
            return (int)i;
    if (v->nsteps == SL_ROOM_MAX_STEPS)
        return -1;
    sl_room_step *s = &v->steps[v->nsteps];
    memset(s, 0, sizeof *s);
    s->lesson = r->lesson;
    snprintf(s->kernel, sizeof s->kernel, "%s", r->kernel);
    snprintf(s->variant, sizeof s->variant, "%s", r->variant);
    return (int)v->nsteps++;
}

static int person_of(char (*names)[SL_ROOM_NICK], int n, const char *nick)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], nick) == 0)
            return i;
    return -1;
}

static int state_here(const sl_room_row *row, const char *const *shipped, size_t nshipped)
{
    for (size_t i = 0; i < nshipped; i++)
        if (strcmp(row->r.source_hash, shipped[i]) == 0)
            return SL_ROOM_NOT_STARTED;
    return row->r.state;
}

static int by_count(const void *a, const void *b)
{
    const sl_room_mistake *x = a, *y = b;
    return x->count != y->count ? y->count - x->count : strcmp(x->hint, y->hint);
}

static int by_pct(const void *a, const void *b)
{
    const sl_room_leader *x = a, *y = b;
    return x->pct < y->pct ? 1 : x->pct > y->pct ? -1 : strcmp(x->nickname, y->nickname);
}

/* Each leader's band (leaders sorted best first): from the best rank to
 * the worst whose interval overlaps its own. */
static void rank_bands(sl_room_leader *l, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        l[i].rank_from = l[i].rank_to = (int)i + 1;
        for (size_t j = 0; j < n; j++)
            if (l[j].low <= l[i].high && l[i].low <= l[j].high) {
                l[i].rank_from = (int)j + 1 < l[i].rank_from ? (int)j + 1 : l[i].rank_from;
                l[i].rank_to = (int)j + 1 > l[i].rank_to ? (int)j + 1 : l[i].rank_to;
            }
    }
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Stuck: the latest run's state (not caught up, not shipped) held over
 * runs spanning at least stuck_minutes. */
static void find_stuck(const sl_room_row *rows, const int *state, const int *step,
                       size_t latest, double stuck_minutes, sl_room_view *v)
{
    const sl_room_row *last = &rows[latest];
    int st = state[latest];
    if (st == SL_ROOM_CAUGHT_UP || st == SL_ROOM_NOT_STARTED || st == SL_ROOM_BUSY ||
        v->nstuck == SL_ROOM_MAX_PEOPLE)
        return;
    double first = last->r.ran_at;
    int runs = 0;
    for (size_t j = latest + 1; j-- > 0;) {
        if (step[j] != step[latest] || strcmp(rows[j].nickname, last->nickname) != 0)
            continue;
        if (state[j] != st || strcmp(rows[j].r.hint, last->r.hint) != 0)
            break;
        first = rows[j].r.ran_at, runs++;
    }
    double minutes = (last->r.ran_at - first) / 60.0;
    if (runs < 2 || minutes < stuck_minutes)
        return;
    sl_room_stuck *s = &v->stuck[v->nstuck++];
    snprintf(s->nickname, sizeof s->nickname, "%s", last->nickname);
    snprintf(s->hint, sizeof s->hint, "%s", last->r.hint);
    s->step = step[latest], s->state = st, s->minutes = minutes, s->runs = runs;
}

/* Each participant's best right speedup on their CPU (not a GPU's rows,
 * sent by make submit), per family: the median. */
static void families(const sl_room_row *rows, const int *state, const size_t *latest,
                     int people, int nsteps, sl_room_view *v)
{
    double best[SL_ROOM_MAX_PEOPLE];
    int fam[SL_ROOM_MAX_PEOPLE];
    for (int p = 0; p < people; p++) {
        best[p] = 0.0, fam[p] = -1;
        for (int s = 0; s < nsteps; s++) {
            size_t i = latest[(size_t)p * SL_ROOM_MAX_STEPS + (size_t)s];
            if (i == (size_t)-1)
                continue;
            if (fam[p] < 0) {
                size_t f = 0;
                while (f < v->nfamilies && strcmp(v->families[f].family, rows[i].family))
                    f++;
                if (f == v->nfamilies && f < 16)
                    snprintf(v->families[v->nfamilies++].family, 48, "%s", rows[i].family);
                fam[p] = f < 16 ? (int)f : -1;
            }
            if (state[i] > SL_ROOM_WRONG && rows[i].r.speedup > best[p] &&
                !sl_room_gpu_variant(rows[i].r.variant))
                best[p] = rows[i].r.speedup;
        }
    }
    for (size_t f = 0; f < v->nfamilies; f++) {
        double got[SL_ROOM_MAX_PEOPLE];
        int n = 0;
        for (int p = 0; p < people; p++)
            if (fam[p] == (int)f && best[p] > 0.0)
                got[n++] = best[p];
        for (int p = 0; p < people; p++)
            v->families[f].people += fam[p] == (int)f;
        qsort(got, (size_t)n, sizeof *got, by_double);
        v->families[f].median_best = n == 0 ? 0.0 : n % 2 ? got[n / 2]
                                                          : (got[n / 2 - 1] + got[n / 2]) / 2;
    }
}

void sl_room_view_make(const sl_room_row *rows, size_t n, const char *const *shipped,
                       size_t nshipped, double stuck_minutes, sl_room_view *v)
{
    memset(v, 0, sizeof *v);
    char (*names)[SL_ROOM_NICK] = malloc(SL_ROOM_MAX_PEOPLE * sizeof *names);
    int *state = malloc((n + 1) * sizeof *state), *step = malloc((n + 1) * sizeof *step);
    size_t *latest = malloc(sizeof *latest * SL_ROOM_MAX_PEOPLE * SL_ROOM_MAX_STEPS);
    if (!names || !state || !step || !latest)
        goto done;
    memset(latest, 0xff, sizeof *latest * SL_ROOM_MAX_PEOPLE * SL_ROOM_MAX_STEPS);
    for (size_t i = 0; i < n; i++) {
        int p = person_of(names, v->people, rows[i].nickname);
        if (p < 0 && v->people < SL_ROOM_MAX_PEOPLE) {
            p = v->people++;
            snprintf(names[p], sizeof names[p], "%s", rows[i].nickname);
        }
        step[i] = step_of(v, &rows[i].r);
        state[i] = state_here(&rows[i], shipped, nshipped);
        if (p >= 0 && step[i] >= 0)
            latest[(size_t)p * SL_ROOM_MAX_STEPS + (size_t)step[i]] = i;
    }
    for (int p = 0; p < v->people; p++) {
        sl_room_leader best = { .pct = -1.0, .step = -1 };
        for (size_t s = 0; s < v->nsteps; s++) {
            size_t i = latest[(size_t)p * SL_ROOM_MAX_STEPS + s];
            if (i == (size_t)-1) {
                v->steps[s].count[SL_ROOM_NOT_STARTED]++;
                continue;
            }
            v->steps[s].count[state[i]]++;
            find_stuck(rows, state, step, i, stuck_minutes, v);
            size_t m = 0;
            while (state[i] == SL_ROOM_WRONG && m < v->nmistakes &&
                   strcmp(v->mistakes[m].hint, rows[i].r.hint) != 0)
                m++;
            if (state[i] == SL_ROOM_WRONG && m == v->nmistakes && m < 8)
                snprintf(v->mistakes[v->nmistakes++].hint, 24, "%s", rows[i].r.hint);
            if (state[i] == SL_ROOM_WRONG && m < 8)
                v->mistakes[m].count++;
            if (state[i] > SL_ROOM_WRONG && rows[i].r.solution_pct > best.pct) {
                best.pct = rows[i].r.solution_pct, best.step = (int)s;
                best.low = rows[i].r.solution_low, best.high = rows[i].r.solution_high;
                snprintf(best.family, sizeof best.family, "%s", rows[i].family);
            }
        }
        snprintf(best.nickname, sizeof best.nickname, "%s", names[p]);
        if (best.pct >= 0.0)
            v->leaders[v->nleaders++] = best;
    }
    families(rows, state, latest, v->people, (int)v->nsteps, v);
    qsort(v->mistakes, v->nmistakes, sizeof *v->mistakes, by_count);
    qsort(v->leaders, v->nleaders, sizeof *v->leaders, by_pct);
    rank_bands(v->leaders, v->nleaders);
done:
    free(names), free(state), free(step), free(latest);
}
