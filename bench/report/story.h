/* story.h - what a run says, before its details: one headline row per
 * rung of each kernel's ladder, a few findings in plain words, and the
 * warnings a reader must not miss (disturbed, inconsistent, invalid, host
 * fallback, interrupted). Everything is chosen from the suite's data and
 * the kernels' tables and problem definitions; no kernel is named here.
 */
#ifndef SPEEDLAB_STORY_H
#define SPEEDLAB_STORY_H

#include <stdio.h>

#include "breakdown.h"
#include "ceiling.h"
#include "suite.h"

/* The most rungs a kernel's headline shows. */
#define SL_MAX_RUNGS 16

/* One rung of a ladder as the headline shows it. */
typedef struct sl_rung {
    const sl_config *c;     /* the representative configuration */
    double pct;             /* % of its ceiling; 0: none */
    char limit[128];        /* what limits it, in words */
} sl_rung;

/* Is c the headline's configuration of its variant? (Plots mark their bars
 * from the same choice.) */
int sl_story_is_rung(const sl_suite *s, const sl_config *c);

/* The headline table in Markdown, one block of rows per kernel (the
 * console shows it through report.h's text rendering). */
void sl_story_headline_md(FILE *f, const sl_suite *s, const sl_ceilings *m);

/* The warnings as Markdown list items ("- ..."); returns how many. */
int sl_story_warnings(FILE *f, const sl_suite *s, const sl_breakdown *bd);

/* The findings as Markdown list items; returns how many. */
int sl_story_findings(FILE *f, const sl_suite *s, const sl_ceilings *m,
                      const sl_breakdown *bd);

#endif
