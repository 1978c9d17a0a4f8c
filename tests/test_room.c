/* test_room.c - the room's rules (bench/room/): a post to JSON and back,
 * each hostile post refused with its reason, the rate limit, the store
 * (a resent post counted once), and the view the instructor reads:
 * states per step, as-shipped files not started, who is stuck, the
 * commonest mistakes and the leaderboard's order; a nickname with HTML
 * shown as text. And the state a busy run's record is sent with.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "collect.h"
#include "page.h"
#include "record.h"
#include "send.h"
#include "verdict.h"
#include "server.h"
#include "store.h"
#include "view.h"

static sl_room_post sample(const char *nick)
{
    sl_room_post p = { .lanes = 8, .cores = 4, .count = 2 };
    snprintf(p.nickname, sizeof p.nickname, "%s", nick);
    snprintf(p.family, sizeof p.family, "x86-64 AVX2");
    sl_room_record a = { .lesson = 1, .threads = 0, .state = SL_ROOM_CAUGHT_UP,
                         .speedup = 3.5, .ceiling_pct = 42.0, .solution_pct = 97.0,
                         .solution_low = 93.0, .solution_high = 101.0, .seconds = 0.01,
                         .ran_at = 1.8e9 };
    snprintf(a.id, sizeof a.id, "r1"), snprintf(a.kernel, sizeof a.kernel, "k");
    snprintf(a.variant, sizeof a.variant, "simd");
    snprintf(a.source_hash, sizeof a.source_hash, "00000000000000aa");
    sl_room_record b = a;
    snprintf(b.id, sizeof b.id, "r2"), snprintf(b.variant, sizeof b.variant, "threads");
    b.threads = 4, b.state = SL_ROOM_WRONG, b.speedup = 0, b.ceiling_pct = -1;
    b.solution_pct = b.solution_low = b.solution_high = -1;
    snprintf(b.hint, sizeof b.hint, "race");
    p.records[0] = a, p.records[1] = b;
    return p;
}

/* The post as JSON with `from` replaced by `to` (once), parsed: the
 * reason, "" when accepted. */
static const char *parse_changed(const char *from, const char *to)
{
    static char why[256];
    sl_room_post p = sample("ann"), got;
    char *json = sl_room_post_json(&p), *at = strstr(json, from), text[8192];
    if (at == NULL)
        return "(the sample has no such text)";
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - json), json, to, at + strlen(from));
    free(json);
    why[0] = '\0';
    sl_room_post_parse(text, strlen(text), &got, why, sizeof why);
    return why;
}

static void json_both_ways(void)
{
    sl_room_post p = sample("ann"), got;
    char *json = sl_room_post_json(&p), why[256] = "";
    CHECK(json != NULL);
    CHECK_EQ_LL(sl_room_post_parse(json, strlen(json), &got, why, sizeof why), 0);
    CHECK_EQ_LL(got.count, 2);
    CHECK(strcmp(got.nickname, "ann") == 0 && got.cores == 4 && got.lanes == 8);
    CHECK(got.records[1].state == SL_ROOM_WRONG && strcmp(got.records[1].hint, "race") == 0);
    CHECK(got.records[0].speedup == 3.5 && got.records[0].ceiling_pct == 42.0);
    CHECK(got.records[0].solution_pct == 97.0 && got.records[0].solution_high == 101.0);
    free(json);
}

static void hostile_posts(void)
{
    CHECK_CONTAINS(parse_changed("{", "{{"), "malformed JSON");
    CHECK_CONTAINS(parse_changed("\"ceiling_pct\":42.0", "\"ceiling_pct\":130"),
                   "\"ceiling_pct\" is 130");
    /* Ten times the solution's speed is no one's code; a share outside
     * its own interval is no measurement. */
    CHECK_CONTAINS(parse_changed("\"solution_pct\":97.0", "\"solution_pct\":5000"),
                   "\"solution_pct\" is 5000");
    CHECK_CONTAINS(parse_changed("\"solution_pct\":97.0", "\"solution_pct\":50"),
                   "outside its own interval");
    CHECK_CONTAINS(parse_changed("\"seconds\":0.01", "\"seconds\":-1"), "\"seconds\" is -1");
    CHECK_CONTAINS(parse_changed("\"ran_at\":1800000000.0", "\"ran_at\":5"), "\"ran_at\" is 5");
    CHECK_CONTAINS(parse_changed("\"speedup\":0.0", "\"speedup\":9.0"),
                   "a speedup from a variant that did not validate");
    /* Too busy to time: no figure may ride on it (one without is taken). */
    CHECK_CONTAINS(parse_changed("\"caught_up\"", "\"busy\""),
                   "a speed figure on a record too busy to time");
    sl_room_post busy = sample("ann"), back;
    busy.records[0].state = SL_ROOM_BUSY, busy.records[0].speedup = 0.0;
    busy.records[0].solution_pct = busy.records[0].solution_low = -1.0;
    busy.records[0].solution_high = -1.0;
    char *busy_json = sl_room_post_json(&busy), busy_why[256] = "";
    CHECK(busy_json && sl_room_post_parse(busy_json, strlen(busy_json), &back, busy_why,
                                          sizeof busy_why) == 0);
    CHECK(back.records[0].state == SL_ROOM_BUSY);
    free(busy_json);
    CHECK_CONTAINS(parse_changed("\"race\"", "\"rm -rf\""), "unknown hint class");
    CHECK_CONTAINS(parse_changed("\"caught_up\"", "\"winner\""), "unknown state");
    CHECK_CONTAINS(parse_changed("\"ann\"", "\"a\\u0007b\""), "control characters");
    CHECK_CONTAINS(parse_changed("\"ann\"", "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\""),
                   "longer than 32 bytes");
    CHECK_CONTAINS(parse_changed("\"lanes\":8", "\"lanes\":\"8\""), "\"lanes\" is missing");
    CHECK_CONTAINS(parse_changed("\"nickname\"", "\"nickname\":1,\"nickname\""),
                   "malformed JSON");            /* a key twice */
    /* A nickname with HTML is text, taken as it is: the page escapes it. */
    CHECK_EQ_LL(parse_changed("\"ann\"", "\"<script>x</script>\"")[0], 0);
    char big[SL_ROOM_MAX_BODY + 10], why[256] = "";
    memset(big, ' ', sizeof big);
    sl_room_post got;
    CHECK_EQ_LL(sl_room_post_parse(big, sizeof big, &got, why, sizeof why), -1);
    CHECK_CONTAINS(why, "over the limit");
    CHECK_EQ_LL(sl_room_post_parse("[]", 2, &got, why, sizeof why), -1);
    CHECK_CONTAINS(why, "not a JSON object");
}

static void rate_limit(void)
{
    static sl_room_limit l;
    int allowed = 0;
    for (int i = 0; i < 50; i++)
        allowed += sl_room_allow(&l, "flood", 100.0 + 0.01 * i);
    CHECK_EQ_LL(allowed, SL_ROOM_BURST);
    CHECK_EQ_LL(sl_room_allow(&l, "calm", 100.5), 1);   /* another participant: unharmed */
    CHECK_EQ_LL(sl_room_allow(&l, "flood", 100.5 + SL_ROOM_REFILL_S), 1);  /* later: again */
    CHECK(sl_room_code_ok("ROOM42") && !sl_room_code_ok("ab") && !sl_room_code_ok("RO/OM"));
}

/* One row of a hand-made room. */
static sl_room_row row(double t, const char *nick, const char *variant, int state,
                       const char *hint, double speedup, double pct, const char *hash)
{
    sl_room_row r = { .received = 1.8e9 + 3600 };   /* all sent late, at once */
    snprintf(r.nickname, sizeof r.nickname, "%s", nick);
    snprintf(r.family, sizeof r.family, "%s", speedup > 5 ? "x86-64 AVX-512" : "aarch64 NEON");
    r.r.ran_at = 1.8e9 + t;
    r.r.lesson = 1, r.r.state = state, r.r.speedup = speedup, r.r.ceiling_pct = pct;
    /* Its share of the solution's speed, +-5% (the leaderboard's). */
    r.r.solution_pct = pct, r.r.solution_low = pct < 0 ? pct : 0.95 * pct;
    r.r.solution_high = pct < 0 ? pct : 1.05 * pct;
    snprintf(r.r.kernel, sizeof r.r.kernel, "k");
    snprintf(r.r.variant, sizeof r.r.variant, "%s", variant);
    snprintf(r.r.hint, sizeof r.r.hint, "%s", hint);
    snprintf(r.r.source_hash, sizeof r.r.source_hash, "%s", hash);
    return r;
}

/* Byte-identical files on a quiet and a loaded machine: their shares of
 * the solution's speed overlap, so they share a rank band, whichever is
 * higher; a slower one below stands alone. */
static void identical_files_share_a_band(void)
{
    sl_room_row rows[] = {
        row(0, "quiet", "simd", SL_ROOM_CAUGHT_UP, "", 7.9, 99, "same"),
        row(1, "loaded", "simd", SL_ROOM_CAUGHT_UP, "", 3.1, 101, "same"),
        row(2, "novec", "simd", SL_ROOM_SLOW, "", 1.1, 14, "other"),
    };
    rows[1].r.solution_low = 88.0, rows[1].r.solution_high = 115.0;  /* a busy machine's */
    static sl_room_view v;
    sl_room_view_make(rows, 3, NULL, 0, 10.0, &v);
    CHECK_EQ_LL(v.nleaders, 3);
    CHECK(strcmp(v.leaders[0].nickname, "loaded") == 0 && strcmp(v.leaders[2].nickname, "novec") == 0);
    CHECK(v.leaders[0].rank_from == 1 && v.leaders[0].rank_to == 2);
    CHECK(v.leaders[1].rank_from == 1 && v.leaders[1].rank_to == 2);
    CHECK(v.leaders[2].rank_from == 3 && v.leaders[2].rank_to == 3);
    size_t len;
    char *md = sl_room_markdown(&v, 1, 3, &len);
    CHECK_CONTAINS(md, "| 1-2 | loaded | 101% [88, 115] |");
    CHECK_CONTAINS(md, "| 1-2 | quiet | 99% [94, 104] |");
    CHECK_CONTAINS(md, "| 3 | novec | 14% [13, 15] |");
    free(md);
}

static void the_view(void)
{
    const sl_room_row rows[] = {
        row(0, "ann", "simd", SL_ROOM_SLOW, "", 1.1, 10, "shipped1"),
        row(10, "bob", "simd", SL_ROOM_CAUGHT_UP, "", 7.9, 80, "b1"),
        row(20, "cy", "threads", SL_ROOM_WRONG, "race", 0, -1, "c1"),
        row(30, "dee", "threads", SL_ROOM_WRONG, "race", 0, -1, "d1"),
        row(40, "eve", "threads", SL_ROOM_WRONG, "whole_loop", 0, -1, "e1"),
        row(50, "cy", "simd", SL_ROOM_SLOWER, "", 0.5, 5, "c2"),
        row(700, "cy", "threads", SL_ROOM_WRONG, "race", 0, -1, "c3"),   /* 11 min on */
        row(710, "dee", "threads", SL_ROOM_CAUGHT_UP, "", 3.9, 95, "d2"), /* fixed it */
        row(720, "<b>x</b>", "simd", SL_ROOM_SLOW, "", 2.0, 60, "x1"),
        row(730, "bob", "gpu", SL_ROOM_CAUGHT_UP, "", 40.0, -1, "b2"),   /* make submit */
    };
    const char *shipped[] = { "shipped1" };
    static sl_room_view v;
    sl_room_view_make(rows, sizeof rows / sizeof rows[0], shipped, 1, 10.0, &v);
    CHECK_EQ_LL(v.people, 6);
    CHECK_EQ_LL(v.nsteps, 3);
    /* A GPU's 40x (bob's make submit) is not his CPU family's best. */
    size_t avx = 0;
    while (avx < v.nfamilies && strcmp(v.families[avx].family, "x86-64 AVX-512") != 0)
        avx++;
    CHECK(avx < v.nfamilies && v.families[avx].median_best == 7.9);
    const sl_room_step *simd = &v.steps[0], *thr = &v.steps[1];
    CHECK(strcmp(simd->variant, "simd") == 0 && strcmp(thr->variant, "threads") == 0);
    /* simd: ann as shipped and dee, eve never: not started; bob caught
     * up; cy slower; <b>x</b> slow. */
    CHECK_EQ_LL(simd->count[SL_ROOM_NOT_STARTED], 3);
    CHECK_EQ_LL(simd->count[SL_ROOM_CAUGHT_UP], 1);
    CHECK_EQ_LL(simd->count[SL_ROOM_SLOWER], 1);
    CHECK_EQ_LL(simd->count[SL_ROOM_SLOW], 1);
    /* threads: cy and eve WRONG, dee caught up since. */
    CHECK_EQ_LL(thr->count[SL_ROOM_WRONG], 2);
    CHECK_EQ_LL(thr->count[SL_ROOM_CAUGHT_UP], 1);
    CHECK_EQ_LL(thr->count[SL_ROOM_NOT_STARTED], 3);
    /* Stuck: cy, WRONG (race) over two runs 11 minutes apart; eve's one
     * run is not a streak, dee moved on. */
    CHECK_EQ_LL(v.nstuck, 1);
    CHECK(v.nstuck == 1 && strcmp(v.stuck[0].nickname, "cy") == 0 && v.stuck[0].runs == 2 &&
          v.stuck[0].minutes > 10.0);
    /* Mistakes: race (cy) 1, whole_loop (eve) 1 -- dee's race is fixed. */
    CHECK_EQ_LL(v.nmistakes, 2);
    CHECK(v.mistakes[0].count == 1 && v.mistakes[1].count == 1);
    /* Leaderboard: dee 95, bob 80, <b>x</b> 60, cy 5; ann (as shipped) is
     * not on it. */
    CHECK_EQ_LL(v.nleaders, 4);
    CHECK(strcmp(v.leaders[0].nickname, "dee") == 0 && strcmp(v.leaders[1].nickname, "bob") == 0 &&
          strcmp(v.leaders[2].nickname, "<b>x</b>") == 0 && strcmp(v.leaders[3].nickname, "cy") == 0);
    size_t len;
    char *md = sl_room_markdown(&v, 1, 3, &len);
    CHECK_CONTAINS(md, "| 1 | dee | 95% [90, 100] |");
    CHECK(strstr(md, "| 4 | cy") == NULL);               /* top 3 */
    CHECK_CONTAINS(md, "| cy | k threads | WRONG (race on a shared sum) | 11 min | 2 |");
    free(md);
    md = sl_room_markdown(&v, 0, 3, &len);
    CHECK(strstr(md, "Stuck") == NULL);                   /* the room's page: no names stuck */
    free(md);
    char dir[] = "/tmp/test_room.XXXXXX", page[128];
    CHECK(mkdtemp(dir) != NULL);
    CHECK_EQ_LL(sl_room_pages(dir, &v, 10, 5), 0);
    snprintf(page, sizeof page, "%s/room.html", dir);
    FILE *f = fopen(page, "r");
    char html[65536] = "";
    size_t n = f ? fread(html, 1, sizeof html - 1, f) : 0;
    html[n] = '\0';
    if (f)
        fclose(f);
    CHECK_CONTAINS(html, "&lt;b&gt;x&lt;/b&gt;");
    CHECK(strstr(html, "<b>x</b>") == NULL);
    CHECK_CONTAINS(html, "<meta http-equiv=\"refresh\" content=\"5\">");
    unlink(page);
    snprintf(page, sizeof page, "%s/instructor.html", dir);
    unlink(page);
    rmdir(dir);
}

static void the_store(void)
{
    char path[] = "/tmp/test_room_store.XXXXXX", why[256] = "";
    int fd = mkstemp(path);
    close(fd);
    sl_room_db *db = sl_room_store_open(path, why, sizeof why);
    CHECK(db != NULL);
    sl_room_post p = sample("ann");
    CHECK_EQ_LL(sl_room_store_add(db, &p, 1.0, why, sizeof why), 0);
    CHECK_EQ_LL(sl_room_store_add(db, &p, 2.0, why, sizeof why), 0);   /* resent */
    sl_room_post q = sample("bob");                                     /* same ids */
    CHECK_EQ_LL(sl_room_store_add(db, &q, 3.0, why, sizeof why), 0);
    size_t n = 0;
    sl_room_row *rows = sl_room_store_load(db, &n, why, sizeof why);
    CHECK_EQ_LL(n, 4);
    CHECK(rows && strcmp(rows[0].nickname, "ann") == 0 && rows[0].r.speedup == 3.5 &&
          rows[1].r.state == SL_ROOM_WRONG && strcmp(rows[3].nickname, "bob") == 0);
    free(rows);
    sl_room_store_close(db);
    char extra[300];
    snprintf(extra, sizeof extra, "%s-wal", path), unlink(extra);
    snprintf(extra, sizeof extra, "%s-shm", path), unlink(extra);
    unlink(path);
}

/* A participant's nickname: their own, or one random name kept from the
 * first run on (not a new person at every run). */
static void nicknames(void)
{
    char dir[] = "/tmp/test_room_nick.XXXXXX", results[128], a[SL_ROOM_NICK], b[SL_ROOM_NICK];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(results, sizeof results, "%s/results", dir);   /* not there yet */
    unsetenv(SL_ROOM_NICK_ENV);
    sl_room_nickname(results, a, sizeof a);
    sl_room_nickname(results, b, sizeof b);
    CHECK(a[0] && strcmp(a, b) == 0);
    CHECK(strchr(a, '-') != NULL);                          /* quiet-otter-0042 */
    setenv(SL_ROOM_NICK_ENV, "ann", 1);
    sl_room_nickname(results, b, sizeof b);
    CHECK(strcmp(b, "ann") == 0);
    unsetenv(SL_ROOM_NICK_ENV);
    char path[256];
    snprintf(path, sizeof path, "%s/room/nickname", results), unlink(path);
    snprintf(path, sizeof path, "%s/room", results), rmdir(path);
    rmdir(results), rmdir(dir);
}

/* A right, busy configuration whose repetitions' busiest threads took
 * cpu[r] seconds (the room's state comes from these pairs). */
static void busy_config(sl_config *c, const sl_kernel *k, const char *tree, int variant,
                        const double *cpu)
{
    memset(c, 0, sizeof *c);
    c->tree = tree, c->kernel = k, c->variant = &k->variants[variant];
    c->valid = c->validated = 1, c->contaminated = 1, c->timed = 6, c->median = 1.0;
    c->outcome.where = SL_RAN_HOST;
    for (int r = 0; r < 6; r++)
        c->seconds[r] = 1.0, c->iterations[r] = 1, c->busiest[r] = cpu[r], c->start[r] = r;
}

/* Busy: "slower" only when the pairs' whole interval is (six pairs:
 * every one; a lock per step); a right simd.c whose pairs the load
 * spread from 0.4x to 2x has no speed verdict (too wide to judge: the
 * runner's verdict says so), so the room marks it busy and keeps no
 * figure, as it does threads on fewer cores than they need beside a busy
 * program; neither is ranked. */
static void busy_states(void)
{
    static const sl_problem_def def = { .name = "toy", .size_name = "steps" };
    static const sl_variant v[] = { { .name = "scalar" }, { .name = "simd" } };
    const sl_kernel k = { &def, v, 2 };
    double scalar[6] = { 1, 1, 1, 1, 1, 1 }, sol[6] = { .5, .5, .5, .5, .5, .5 };
    double spread[6] = { 2.5, 2.0, 1.6, 1.3, 1.0, 0.5 }, locked[6] = { 4, 5, 5, 6, 6, 7 };
    sl_config c[3];
    sl_suite s = { .configs = c, .count = 3 };
    busy_config(&c[0], &k, "solutions", 0, scalar);
    busy_config(&c[1], &k, "solutions", 1, sol);
    busy_config(&c[2], &k, "exercises", 1, spread);
    CHECK_EQ_LL(sl_room_state_of(&s, &c[2]), SL_ROOM_BUSY);
    CHECK(sl_speedup_judged(&s, &c[2], NULL) == 0.0);
    /* Two threads on one granted core beside a busy program. */
    busy_config(&c[2], &k, "exercises", 1, sol);
    c[2].threads_used = 2, c[2].oversubscribed = 1;
    CHECK_EQ_LL(sl_room_state_of(&s, &c[2]), SL_ROOM_BUSY);
    busy_config(&c[2], &k, "exercises", 1, locked);
    CHECK_EQ_LL(sl_room_state_of(&s, &c[2]), SL_ROOM_SLOWER);
    busy_config(&c[2], &k, "exercises", 1, sol);
    CHECK_EQ_LL(sl_room_state_of(&s, &c[2]), SL_ROOM_CAUGHT_UP);
}

int main(void)
{
    busy_states();
    nicknames();
    json_both_ways();
    hostile_posts();
    rate_limit();
    the_view();
    identical_files_share_a_band();
    the_store();
    return CHECK_DONE();
}
